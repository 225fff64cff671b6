import ArgumentParser
import FlapEndpoints
import FlapJSON
import FlapMCP
import FoundationEssentials

/// `flapctl template`: quick messages kept by flapd.
struct TemplateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "template", abstract: "Save, list, send, rename or delete quick messages (up to 20, kept by flapd).",
        discussion: HelpExamples.discussion("template"),
        subcommands: [List.self, Save.self, Send.self, Rename.self, Delete.self], defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The quick messages, by name.")
        @OptionGroup var connection: ConnectionOptions
        @OptionGroup var answer: JSONAnswerOption

        func run() async throws {
            let reply = try await connection.connection().expect(.templates)
            if answer.printed(reply) { return }
            let templates = reply.decoded(TemplatesAnswer.self)?.templates ?? []
            let lines = templates.map { template -> String in
                let what = template.fields?.text.map { $0.replacing("\n", with: " / ") } ?? (template.fields?.codes != nil ? "(codes)" : "(pattern)")
                return "\(template.name ?? "?")  \(what)"
            }
            StandardStream.writeOutput((lines.isEmpty ? "no quick messages yet" : lines.joined(separator: "\n")) + "\n")
        }
    }

    struct Save: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Save TEXT (or --codes, or what a panel shows: --from-board) as quick message NAME, replacing one of that name.")
        @OptionGroup var connection: ConnectionOptions
        @Argument(help: "Its name.") var name: String
        @Argument(help: "The text (\\n for a new line, {63} for a colour).") var text: String?
        @Option(help: "Rows of character codes as JSON instead of text: [[0, 8, 9, …], …].") var codes: String?
        @Option(help: "left, center, right, justified.") var align: String?
        @Option(help: "top, middle, bottom.") var valign: String?
        @Flag(help: "Keep what a panel shows now, codes and colours exactly, whoever put it there.") var fromBoard = false
        @Option(help: "With --from-board: the panel (default: the first).") var panel: String?

        func validate() throws {
            if [text != nil, codes != nil, fromBoard].filter({ $0 }).count != 1 { throw ValidationError("give the text, --codes or --from-board") }
            if panel != nil, !fromBoard { throw ValidationError("--panel is for --from-board") }
            if fromBoard, align != nil || valign != nil { throw ValidationError("--from-board keeps the board as it is: no --align or --valign") }
        }

        func run() async throws {
            if fromBoard { return try await keepBoard() }
            var fields: [String: JSONValue] = [:]
            if let text { fields["text"] = .string(text.replacing("\\n", with: "\n")) }
            if let codes {
                guard let rows = try? JSONValue(parsing: Array(codes.utf8)) else {
                    throw InputError("--codes is not JSON: give rows such as [[0, 8, 9]]")
                }
                fields["codes"] = rows
            }
            fields["align"] = JSONValue(align)
            fields["valign"] = JSONValue(valign)
            let reply = try await connection.connection().request(.saveTemplate, name, json: try JSONEncoder().encode(fields))
            guard reply.status == 200 || reply.status == 201 else {
                if reply.status == 400 { throw InputError(reply.error) }
                throw ConnectionError("flapd answered \(reply.status): \(reply.error)")
            }
            StandardStream.writeOutput("\(reply.status == 201 ? "saved" : "replaced") \(self.name)\n")
        }

        /// `POST /v1/templates/NAME/from-board`.
        func keepBoard() async throws {
            let body = try JSONEncoder().encode(panel.map { ["panel": $0] } ?? [:])
            let reply = try await connection.connection().request(.saveTemplateFromBoard, name, json: body)
            guard reply.status == 200 || reply.status == 201 else {
                if [400, 404, 409].contains(reply.status) { throw InputError(reply.error) }
                throw ConnectionError("flapd answered \(reply.status): \(reply.error)")
            }
            StandardStream.writeOutput("\(reply.status == 201 ? "saved" : "replaced") \(name) from the board\n")
        }
    }

    struct Send: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Send quick message NAME; prints the message's id.")
        @OptionGroup var connection: ConnectionOptions
        @Argument(help: "Its name.") var name: String
        @Option(help: "The sender it is shown as (default quick-messages).") var sender: String?

        func run() async throws {
            let fields = ["sender": sender.map { ["id": $0] }].compactMapValues { $0 }
            let reply = try await connection.connection().expect(
                .sendTemplate, name, json: try JSONEncoder().encode(fields), expecting: [200, 202])
            StandardStream.writeOutput("\(reply.decoded(MessageAnswer.self)?.id ?? "")\n")
        }
    }

    struct Rename: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Rename quick message NAME to NEW.")
        @OptionGroup var connection: ConnectionOptions
        @Argument(help: "Its name.") var name: String
        @Argument(help: "Its new name.") var new: String

        func run() async throws {
            _ = try await connection.connection().expect(
                .renameTemplate, name,
                json: try JSONEncoder().encode(["to": new]))
            StandardStream.writeOutput("renamed \(name) to \(new)\n")
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete quick message NAME.")
        @OptionGroup var connection: ConnectionOptions
        @Argument(help: "Its name.") var name: String

        func run() async throws {
            _ = try await connection.connection().expect(.deleteTemplate, name, expecting: [204])
            StandardStream.writeOutput("deleted \(name)\n")
        }
    }
}

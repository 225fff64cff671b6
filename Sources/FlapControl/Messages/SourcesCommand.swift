import ArgumentParser
import FlapEndpoints
import FlapJSON
import FlapMCP
import FoundationEssentials

/// `flapctl sources`: the content sources, what each gives templates now, a fetch now, a push.
struct SourcesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sources", abstract: "List content sources and triggers, fetch one now, or push values to a webhook source.",
        discussion: HelpExamples.discussion("sources"),
        subcommands: [List.self, Refresh.self, Push.self], defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Each source's state and the values {{source.value}} gives now, and each trigger.")
        @OptionGroup var connection: ConnectionOptions
        @OptionGroup var answer: JSONAnswerOption

        func run() async throws {
            let reply = try await connection.connection().expect(.sources)
            if answer.printed(reply) { return }
            let answer = (try? JSONValue(parsing: reply.body)) ?? .null
            var lines: [String] = []
            for source in answer["sources"]?.array ?? [] {
                let name = source["name"]?.string ?? "?"
                var line = "\(name)  \(source["kind"]?.string ?? "")  \(source["state"]?.string ?? "")"
                if let updated = source["updated"]?.string { line += ", updated \(updated)" }
                if let error = source["error"]?.string { line += "; \(error)" }
                lines.append(line)
                let values = source["values"]?.object ?? [:]
                for (key, value) in values.sorted(by: { $0.key < $1.key }) where !["stale", "updated"].contains(key) {
                    lines.append("  {{\(name).\(key)}} \(Self.short(value))")
                }
                for warning in source["warnings"]?.array ?? [] { lines.append("  warning: \(warning.string ?? "")") }
            }
            if lines.isEmpty { lines.append("no sources ([[source]] tables in flapd.toml)") }
            for trigger in answer["triggers"]?.array ?? [] {
                let fired = trigger["lastFired"]?.string.map { "last fired \($0)" } ?? "not fired yet"
                lines.append(
                    "trigger \(trigger["name"]?.string ?? "?"): when \(trigger["source"]?.string ?? "?") \(trigger["when"]?.string ?? ""), \(fired)")
            }
            StandardStream.writeOutput(lines.joined(separator: "\n") + "\n")
        }

        static func short(_ value: JSONValue) -> String {
            switch value {
            case .array(let items): "(\(items.count) items)"
            case .object(let members): members["title"]?.string ?? value.text
            case .string(let text): text
            default: value.text
            }
        }
    }

    struct Refresh: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Fetch a calendar, feed or JSON source now.")
        @OptionGroup var connection: ConnectionOptions
        @Argument(help: "The source's name.") var name: String

        func run() async throws {
            _ = try await connection.connection().expect(.refreshSource, name, expecting: [202])
            StandardStream.writeOutput("fetching \(name); flapctl sources shows the outcome\n")
        }
    }

    struct Push: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set values of a webhook source: FIELD=VALUE (a number, true, false and null as such; anything else as text).")
        @OptionGroup var connection: ConnectionOptions
        @Argument(help: "The webhook source's name.") var name: String
        @Argument(help: "FIELD=VALUE, such as state=open.") var values: [String]

        func validate() throws {
            guard !values.isEmpty else { throw ValidationError("give at least one FIELD=VALUE, such as state=open") }
            for value in values where !value.contains("=") { throw ValidationError("\(value) is not FIELD=VALUE, such as state=open") }
        }

        func run() async throws {
            var object: [String: JSONValue] = [:]
            for pair in values {
                let field = String(pair.prefix { $0 != "=" }), text = String(pair.drop { $0 != "=" }.dropFirst())
                let literal = try? JSONValue(parsing: Array(text.utf8))
                switch literal {
                case let value? where value.number != nil || value.bool != nil || value == .null: object[field] = value
                default: object[field] = .string(text)
                }
            }
            let reply = try await connection.connection().expect(
                .pushToSource, name, json: Data(JSONValue.object(object).text.utf8))
            let now = ((try? JSONValue(parsing: reply.body))?["values"]?.object ?? [:]).filter { !["stale", "updated"].contains($0.key) }
            StandardStream.writeOutput(
                "\(name): " + now.sorted { $0.key < $1.key }.map { "\($0.key)=\(List.short($0.value))" }.joined(separator: ", ") + "\n")
        }
    }
}

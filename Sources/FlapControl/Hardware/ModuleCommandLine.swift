import ArgumentParser
import FlapMCP
import FoundationEssentials

/// `flapctl module`: one RS-485 module's firmware command, through flapd (which keeps the bus):
/// how a wall is calibrated, module by module.
struct ModuleCommandLine: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "module",
        abstract: "Send one module of an RS-485 wall a command of its firmware (home, measure, offset, nudge, store, dump, id, auto-home, erase).",
        discussion: HelpExamples.discussion(
            "module",
            """
            home: find home. measure: count the steps of a turn (then home). offset STEPS: steps from the \
            magnet to the blank flap. nudge STEPS: turn on that many steps, added to the offset. store FLAP \
            STEPS: the flap (its character on the reel: A, q for the double quote, r for red) shows at that \
            step. dump: what the module keeps. id ID: its new ID. auto-home on|off: home at power-up. erase: \
            forget the stored positions.
            """))

    @OptionGroup var connection: ConnectionOptions

    @Option(help: "The panel.")
    var panel = "main"

    @Option(help: "The module's row (1-based).")
    var row: Int

    @Option(help: "The module's column (1-based).")
    var column: Int

    @Argument(help: "The command, then what it takes.")
    var words: [String]

    @OptionGroup var answer: JSONAnswerOption

    /// The request's body for `words`, or what is wrong with them.
    static func body(_ words: [String], row: Int, column: Int) throws(ValidationError) -> [String: ModuleValue] {
        var body: [String: ModuleValue] = ["row": .number(row), "column": .number(column)]
        guard let command = words.first else {
            throw ValidationError("give a command: home, measure, offset, nudge, store, dump, id, auto-home or erase")
        }
        body["command"] = .text(command)
        let rest = Array(words.dropFirst())
        func number(_ text: String?, _ what: String) throws(ValidationError) -> ModuleValue {
            guard let text, let value = Int(text), value >= 0 else { throw ValidationError("\(command) takes \(what), a whole number from 0") }
            return .number(value)
        }
        switch (command, rest.count) {
        case ("home", 0), ("measure", 0), ("dump", 0), ("erase", 0): break
        case ("offset", 1), ("nudge", 1): body["steps"] = try number(rest[0], "steps")
        case ("store", 2):
            body["flap"] = .text(rest[0])
            body["steps"] = try number(rest[1], "steps")
        case ("id", 1): body["id"] = try number(rest[0], "an ID")
        case ("auto-home", 1):
            guard ["on", "off"].contains(rest[0]) else { throw ValidationError("auto-home takes on or off") }
            body["on"] = .flag(rest[0] == "on")
        default: throw ValidationError("\(words.joined(separator: " ")): not a command with what it takes (see flapctl module --help)")
        }
        return body
    }

    func validate() throws { _ = try Self.body(words, row: row, column: column) }

    func run() async throws {
        let flapd = try connection.connection()
        let body = try Self.body(words, row: row, column: column)
        let reply = try await flapd.request("POST", "/v1/panels/\(panel.pathSegment)/modules", json: try JSONEncoder().encode(body))
        guard reply.status == 200 else { throw InputError(reply.error) }
        if answer.printed(reply) { return }
        guard let said = reply.decoded(ModuleSaid.self) else { throw InputError("flapd's answer could not be read: \(reply.error)") }
        var lines = ["module \(said.id) (row \(said.row), column \(said.column)): sent \(said.sent)"]
        if let steps = said.revolution { lines.append("a turn is \(steps) steps") }
        if let offset = said.offset, let steps = said.steps {
            lines.append("offset \(offset) steps, \(steps) steps a turn")
            let stored = (said.positions ?? [:]).sorted { $0.value < $1.value }.map { "\($0.key)=\($0.value)" }
            lines.append(stored.isEmpty ? "no flap positions stored" : "stored: " + stored.joined(separator: " "))
        }
        if let note = said.note { lines.append(note) }
        print(lines.joined(separator: "\n"))
    }
}

/// A value of the request's body.
enum ModuleValue: Encodable, Equatable {
    case number(Int)
    case text(String)
    case flag(Bool)

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .number(let value): try container.encode(value)
        case .text(let value): try container.encode(value)
        case .flag(let value): try container.encode(value)
        }
    }
}

/// `POST /v1/panels/{panel}/modules`'s answer.
struct ModuleSaid: Decodable {
    var row: Int
    var column: Int
    var id: Int
    var sent: String
    var revolution: Int?
    var offset: Int?
    var steps: Int?
    var positions: [String: Int]?
    var note: String?
}

import ArgumentParser
import FlapEndpoints
import FlapJSON
import FoundationEssentials

/// `flapctl module`: one module's command, as the panel's driver declares it (an RS-485 wall's
/// firmware), through flapd, which keeps the bus: how a wall is calibrated, module by module.
/// With no command, the commands the panel's modules take.
struct ModuleCommandLine: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "module",
        abstract: "Send one module of a panel (an RS-485 or SBB wall) a command of its firmware; with no command, list what its modules take.",
        discussion: HelpExamples.discussion(
            "module",
            """
            The commands are the panel's driver's, asked of flapd: `flapctl module --panel wall` lists \
            them with what each takes. An RS-485 wall's: home, measure, offset STEPS, nudge STEPS, \
            store FLAP STEPS (the flap as the reel names it: A, q for the double quote, r for red), \
            dump, id ID, auto-home on|off, erase.
            """))

    @OptionGroup var connection: ConnectionOptions

    @Option(help: "The panel.")
    var panel = "main"

    @Option(help: "The module's row (1-based).")
    var row: Int?

    @Option(help: "The module's column (1-based).")
    var column: Int?

    @Argument(help: "The command, then what it takes.")
    var words: [String] = []

    @OptionGroup var answer: JSONAnswerOption

    func validate() throws {
        if !words.isEmpty, row == nil || column == nil { throw ValidationError("give the module's --row and --column") }
    }

    func run() async throws {
        let flapd = try connection.connection()
        let listed = try await flapd.request(.moduleCommands, panel)
        guard listed.status == 200 else { throw InputError(listed.error) }
        guard let commands = listed.decoded(DeclaredModuleCommands.self) else {
            throw InputError("flapd's list of commands could not be read: \(listed.error)")
        }
        guard let row, let column, !words.isEmpty else {
            if answer.printed(listed) { return }
            return print(commands.text(panel: panel))
        }
        let body = try commands.body(words, row: row, column: column)
        let reply = try await flapd.request(.moduleCommand, panel, json: Data(JSONValue.object(body).text.utf8))
        guard reply.status == 200 else { throw InputError(reply.error) }
        if answer.printed(reply) { return }
        guard let said = reply.decoded(ModuleSaid.self) else { throw InputError("flapd's answer could not be read: \(reply.error)") }
        print(said.lines.joined(separator: "\n"))
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
    var findings: [String]?
    var measured: [String: Int]?

    var lines: [String] {
        var lines = ["module \(id) (row \(row), column \(column)): sent \(sent)"]
        if let revolution { lines.append("a turn is \(revolution) steps") }
        if let offset, let steps {
            lines.append("offset \(offset) steps, \(steps) steps a turn")
            let stored = (positions ?? [:]).sorted { $0.value < $1.value }.map { "\($0.key)=\($0.value)" }
            lines.append(stored.isEmpty ? "no flap positions stored" : "stored: " + stored.joined(separator: " "))
        }
        // A test's answer: what it found wrong, or that the module is well; then any figures.
        if let findings { lines += findings.isEmpty ? ["found well"] : findings }
        let figures = (measured ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        if !figures.isEmpty { lines.append(figures.joined(separator: ", ")) }
        if let note { lines.append(note) }
        return lines
    }
}

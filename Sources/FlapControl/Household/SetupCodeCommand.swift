import ArgumentParser
import FlapCore
import FlapEndpoints
import FoundationEssentials

/// `flapctl setup-code`: the code a board shows until someone claims it from a phone, read from
/// flapd's state directory (so it takes `sudo` on a Pi); `--new` asks flapd to show a new one, to
/// hand the board over or to claim it again from a new phone.
struct SetupCodeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "setup-code",
        abstract: "The code the board shows until someone claims it from a phone (run it with sudo on the board).",
        discussion: HelpExamples.discussion(
            "setup-code",
            "Open the board's page from a phone on the same network (http://THIS-MACHINE.local:8080/) and type the code. "
                + "With --new the board shows a new code, and whoever types it becomes its owner."))
    @OptionGroup var connection: ConnectionOptions
    @Flag(help: "Show a new code on the board, to hand it over or to claim it again from a new phone.") var new = false

    func run() async throws {
        if new {
            let flapd = try connection.connection()
            let reply = try await flapd.request(.newSetupCode)
            guard reply.status == 202 else { throw ConnectionError("flapd answered \(reply.status): \(reply.error)") }
        }
        let files = connection.stateDirectories().map { $0 + "/setup-code" }
        var unreadable: String?
        for path in files {
            switch Self.read(path) {
            case .code(let code):
                StandardStream.writeOutput(
                    "\(code)\n\nOpen the board's page from a phone (http://THIS-MACHINE.local:8080/) and type it; it lasts 15 minutes.\n")
                return
            case .unreadable: unreadable = unreadable ?? path
            case .missing: continue
            }
        }
        if let unreadable { throw InputError("\(unreadable) cannot be read by this user: run it as root (sudo flapctl setup-code)") }
        StandardStream.writeOutput("The board has an owner and shows no code. To hand it over or claim it again: sudo flapctl setup-code --new\n")
    }

    private enum Found { case code(String), unreadable, missing }

    private static func read(_ path: String) -> Found {
        guard FileManager.default.fileExists(atPath: path) else { return .missing }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return .unreadable }
        let code = text.trimmed
        return code.isEmpty ? .missing : .code(code)
    }
}

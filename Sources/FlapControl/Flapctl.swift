import ArgumentParser
import FlapCore

/// `flapctl`: lays out, plans and previews boards; later talks to a running flapd.
public struct Flapctl: AsyncParsableCommand {
    /// Its name, its help and its subcommands.
    public static let configuration = CommandConfiguration(
        commandName: "flapctl",
        abstract: "Lay out, plan and preview boards, and talk to a running flapd.",
        subcommands: [
            LayoutCommand.self, PlanCommand.self, PreviewCommand.self, SendCommand.self, ScheduledCommand.self, ScheduleCommand.self,
            BoardCommand.self,
            StatusCommand.self, SlotsCommand.self, ReceiptsCommand.self, HeartRateCommand.self, RoomCommand.self, QueueCommand.self,
            TemplateCommand.self, ForgetCommand.self, CalibrateCommand.self, ModuleCommandLine.self, ModulesCommand.self, RenderCommand.self,
            MCPCommand.self,
            PairCommand.self, SetupCodeCommand.self, HardwareCommand.self, SettingsCommand.self, SimulateHardwareCommand.self,
            InviteCommand.self, VBMLCommand.self, SourcesCommand.self
        ])

    /// Made by ArgumentParser from the command line.
    public init() {}

    /// Runs flapctl with the process's arguments. Input that cannot be used (bad text, bad
    /// options) exits with status 2 and the reason on stderr, as usage errors do in Unix tools.
    public static func runMain() async {
        // `layout --jsonl` as programs call it goes straight to the layout: the argument parser's
        // first run (its reflection and conformance look-ups) cost more than 400 requests do.
        if Array(CommandLine.arguments.dropFirst()) == ["layout", "--jsonl"] {
            LayoutJSONLines(defaults: LayoutArguments.defaultOptions).run()
            return
        }
        do {
            var command = try parseAsRoot()
            if var async = command as? any AsyncParsableCommand {
                try await async.run()
            } else {
                try command.run()
            }
        } catch let error as InputError {
            StandardStream.writeError("flapctl: \(error.description)\n")
            exit(withError: ExitCode(2))
        } catch let error as ConnectionError {
            StandardStream.writeError("flapctl: \(error.description)\n")
            exit(withError: ExitCode(1))
        } catch {
            let code = exitCode(for: error)
            guard code != .success else { exit(withError: error) }
            StandardStream.writeError(fullMessage(for: error) + "\n")
            // Usage errors are input errors too: same status, so scripts check one number.
            exit(withError: code == .validationFailure ? ExitCode(2) : code)
        }
    }
}

/// Input that flapctl cannot use: the message says what and where. Exit status 2.
package struct InputError: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}

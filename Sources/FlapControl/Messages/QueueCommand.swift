import ArgumentParser
import FlapCore
import FlapEndpoints
import FoundationEssentials

/// `flapctl queue`: the writes waiting for (or done with) real Vestaboards.
struct QueueCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "queue", abstract: "List, retry or cancel writes to real Vestaboards.",
        discussion: HelpExamples.discussion("queue"),
        subcommands: [List.self, Retry.self, Cancel.self], defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The latest writes, newest first, and how each board is doing.")
        @OptionGroup var connection: ConnectionOptions
        @Option(help: "How many writes.") var limit = 20
        @OptionGroup var answer: JSONAnswerOption

        func run() async throws {
            let flapd = try connection.connection()
            let reply = try await flapd.expect(.queue, query: [("limit", "\(limit)")])
            if answer.printed(reply) { return }
            let status = try await flapd.request(.status).decoded(StatusAnswer.self)
            var lines: [String] = []
            for board in status?.boards ?? [] {
                let reachable = board.reachable.map { $0 ? "reachable" : "unreachable" } ?? "not tried yet"
                var line =
                    "\(board.panel ?? "?")\(board.note.map { " Note \($0)" } ?? ""): \(board.api ?? "?") API, \(reachable), \(board.queueDepth ?? 0) waiting"
                if let error = board.lastError { line += "; last error: \(error)" }
                lines.append(line)
            }
            let deliveries = reply.decoded(QueueAnswer.self)?.deliveries ?? []
            if deliveries.isEmpty { lines.append("no writes yet") }
            for delivery in deliveries {
                func padded(_ text: String?, _ width: Int) -> String {
                    let text = text ?? ""
                    return text + String(repeating: " ", count: max(0, width - text.count))
                }
                let attempts = delivery.attempts ?? 0
                var line =
                    String(cFormat: "%6ld  ", delivery.id ?? 0) + padded(delivery.panel, 10) + " " + padded(delivery.state, 11) + " "
                    + padded(delivery.strategy, 15) + " \(attempts) attempt" + (attempts == 1 ? "" : "s")
                if let error = delivery.lastError { line += "  \(error)" }
                lines.append(line)
            }
            StandardStream.writeOutput(lines.joined(separator: "\n") + "\n")
        }
    }

    struct Retry: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Try a failed or conflicting write again (five more attempts; a conflict-aware one is checked again).")
        @OptionGroup var connection: ConnectionOptions
        @Argument(help: "The write's id (flapctl queue list).") var id: Int

        func run() async throws {
            _ = try await connection.connection().expect(.retryDelivery, "\(id)")
            StandardStream.writeOutput("write \(id) will be tried again\n")
        }
    }

    struct Cancel: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Cancel a write still waiting.")
        @OptionGroup var connection: ConnectionOptions
        @Argument(help: "The write's id (flapctl queue list).") var id: Int

        func run() async throws {
            _ = try await connection.connection().expect(.dropDelivery, "\(id)")
            StandardStream.writeOutput("write \(id) cancelled\n")
        }
    }
}

import ArgumentParser
import FlapCore
import FlapEndpoints
import FlapMCP
import FoundationEssentials

/// `flapctl status`: flapd's panels, queue, uptime and version.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show flapd's status.",
        discussion: HelpExamples.discussion("status"))

    @OptionGroup var connection: ConnectionOptions

    @OptionGroup var answer: JSONAnswerOption

    func run() async throws {
        let reply = try await connection.connection().request(.status)
        if answer.printed(reply) { return }
        let status = reply.decoded(StatusAnswer.self)
        print("flapd \(status?.version ?? "?"), up \(status?.uptimeSeconds ?? 0) s")
        for panel in status?.panels ?? [] {
            print(
                "panel \(panel.id ?? "?"): \(panel.driver ?? "?"), \(panel.rows ?? 0)×\(panel.columns ?? 0), drum \(panel.drum ?? "?"), \(panel.moving == true ? "moving" : "at rest"), message \(panel.message ?? "none")"
            )
        }
        print("slots \(status?.queue?.slots ?? 0), waiting to be shown \(status?.queue?.waiting ?? 0)")
    }
}

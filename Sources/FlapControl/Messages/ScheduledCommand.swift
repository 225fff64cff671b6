import ArgumentParser
import FlapCore
import FlapEndpoints
import FlapMCP
import FoundationEssentials

/// `flapctl scheduled`: the messages sent for later, and cancelling one.
struct ScheduledCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scheduled",
        abstract: "List the messages sent for later, or cancel one before its time.",
        discussion: HelpExamples.discussion("scheduled"))

    enum Action: String, ExpressibleByArgument { case list, cancel }

    @OptionGroup var connection: ConnectionOptions

    @Argument(help: "list (default) or cancel.")
    var action: Action = .list

    @Argument(help: "With cancel: the message id.")
    var id: String?

    @OptionGroup var answer: JSONAnswerOption

    func run() async throws {
        let flapd = try connection.connection()
        switch action {
        case .list:
            let reply = try await flapd.request(.scheduled)
            guard reply.status == 200 else { throw InputError("flapd answered \(reply.status): \(reply.error)") }
            if answer.printed(reply) { return }
            let waiting = reply.decoded(ScheduledAnswer.self)?.scheduled ?? []
            if waiting.isEmpty { return print("nothing scheduled") }
            let zone = ZoneRules.current()
            for entry in waiting {
                let when =
                    entry.notBefore.flatMap { try? Date($0, strategy: .iso8601) }
                    .map { zone.text($0) } ?? "?"
                let shows = entry.text ?? (entry.codes != nil ? "(codes)" : "(pattern)")
                print("\(when)  \(entry.id ?? "?")  \(entry.sender ?? "?")  \(shows.debugDescription)")
            }
        case .cancel:
            guard let id else { throw ValidationError("cancel needs the message id (flapctl scheduled lists them)") }
            let reply = try await flapd.request(.cancelMessage, id)
            guard reply.status == 200 else { throw InputError("flapd did not cancel \(id) (\(reply.status)): \(reply.error)") }
            print("\(id) cancelled")
        }
    }
}

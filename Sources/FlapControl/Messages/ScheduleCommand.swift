import ArgumentParser
import FlapCore
import FlapEndpoints
import FlapMCP
import FoundationEssentials

/// `flapctl schedule`: recurring messages.
struct ScheduleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schedule",
        abstract: "List, add or remove recurring messages.",
        discussion: HelpExamples.discussion("schedule"),
        subcommands: [List.self, Add.self, Remove.self], defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The schedules, with when each next fires.")
        @OptionGroup var connection: ConnectionOptions
        @OptionGroup var answer: JSONAnswerOption

        func run() async throws {
            let reply = try await connection.connection().request(.schedules)
            guard reply.status == 200 else { throw InputError("flapd answered \(reply.status): \(reply.error)") }
            if answer.printed(reply) { return }
            let schedules = reply.decoded(SchedulesAnswer.self)?.schedules ?? []
            if schedules.isEmpty { return print("no schedules") }
            let zone = ZoneRules.current()
            for s in schedules {
                let when =
                    s.cron.map { "cron \($0)" }
                    ?? "\(s.days?.joined(separator: ",") ?? "daily") at \(s.times?.joined(separator: ",") ?? "?")"
                let next = s.next.flatMap { try? Date($0, strategy: .iso8601) }.map { zone.text($0) } ?? "never"
                let shows = s.text ?? s.quickMessage.map { "quick message \($0)" } ?? "(codes)"
                let file = s.fromFile == true ? "  (configuration file)" : ""
                print("\(s.name ?? "?")  \(when)\(s.timeZone.map { " \($0)" } ?? "")  next \(next)  \(shows.debugDescription)\(file)")
            }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add a schedule (or change one added before, with --replace).")
        @OptionGroup var connection: ConnectionOptions
        @Argument(help: "Its name.") var name: String
        @Option(
            help:
                "Days: mon … sun (or whole names), ranges such as mon-fri or fri-mon, lists such as sat,sun, or weekdays, weekends, daily (default daily)."
        ) var days: String?
        @Option(help: "Times of day, comma-separated: 07:00,19:30.") var at: String?
        @Option(help: "A five-field cron expression instead of --days and --at.") var cron: String?
        @Option(help: "An IANA time zone (default flapd's).") var zone: String?
        @Option(help: "Minutes each message holds its slot (default 60).") var hold: Int?
        @Option(help: "The sender it speaks as (default schedule-NAME).") var sender: String?
        @Option(help: "Show this quick message instead of a text.") var quickMessage: String?
        @Flag(help: "Keep its message under people's messages (ambient content) instead of taking the board at its time.")
        var background = false
        @Flag(help: "Change the schedule of this name instead of adding one.") var replace = false
        @Argument(help: "The text to show.") var text: String?

        func run() async throws {
            func list(_ text: String?) -> [String]? { text?.split(separator: ",").map { $0.trimmed } }
            // The days as written: flapd reads them (one reader for the file, the API and this).
            let body = ScheduleFields(
                name: name, days: days.map { [$0] }, times: list(at), cron: cron, timeZone: zone, holdMinutes: hold,
                sender: sender, quickMessage: quickMessage, text: text, background: background ? true : nil)
            let request = replace ? Endpoint.replaceSchedule.request(name) : Endpoint.addSchedule.request()
            let reply = try await connection.connection().request(request, json: try JSONEncoder().encode(body))
            guard reply.status == 200 || reply.status == 201 else { throw InputError("flapd refused the schedule (\(reply.status)): \(reply.error)") }
            let next = reply.decoded(ScheduleFields.self)?.next.flatMap { try? Date($0, strategy: .iso8601) }.map { ZoneRules.current().text($0) }
            print("\(name) \(replace ? "changed" : "added")\(next.map { "; next \($0)" } ?? "")")
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a schedule added over the API.")
        @OptionGroup var connection: ConnectionOptions
        @Argument(help: "Its name.") var name: String

        func run() async throws {
            let reply = try await connection.connection().request(.removeSchedule, name)
            guard reply.status == 204 else { throw InputError("flapd did not remove \(name) (\(reply.status)): \(reply.error)") }
            print("\(name) removed")
        }
    }
}

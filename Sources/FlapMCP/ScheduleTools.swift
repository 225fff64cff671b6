import FlapEndpoints
import FlapJSON

/// Recurring messages.
enum ScheduleTools {
    static let list = BoardTool(
        name: "list_schedules", title: "List recurring messages",
        description:
            "The recurring messages: when each runs (days and times, or cron), what it shows and when it next runs. Those from the configuration file say fromFile.",
        readOnly: true,
        run: { _, api in
            try await api.call(.schedules) { answer in
                let names = (answer?["schedules"]?.array ?? []).compactMap { $0["name"]?.string }
                return names.isEmpty ? "no schedules" : "schedules: " + names.joined(separator: ", ")
            }
        })

    static let add = BoardTool(
        name: "add_schedule", title: "Add a recurring message",
        description:
            "Adds a message shown again and again: on days (mon…sun, ranges such as mon-fri, weekdays, weekends, daily) at times (HH:MM), or by a cron expression; "
            + "showing text, codes, a pattern or a quick message.",
        parameters: [
            .init(name: "name", kind: .string, description: "The schedule's name: 1 to 48 characters without spaces or / + #.", required: true),
            .init(
                name: "days", kind: .strings,
                description: "mon, tue, … sun (or whole names), ranges such as mon-fri or fri-mon, weekdays, weekends or daily."),
            .init(name: "times", kind: .strings, description: "Local times of day, HH:MM."),
            .init(name: "cron", kind: .string, description: "A five-field cron expression, instead of days and times."),
            .init(name: "timeZone", kind: .string, description: "An IANA zone such as Europe/Berlin (default the system's)."),
            .init(name: "quickMessage", kind: .string, description: "A quick message's name, to show it.")
        ] + MessageTools.content.filter { ["text", "codes", "pattern", "align"].contains($0.name) } + [
            .init(name: "holdMinutes", kind: .integer(1...10080), description: "How long each showing holds its slot (default 60)."),
            .init(name: "sender", kind: .string, description: "The sender it speaks as (default schedule-NAME)."),
            .init(
                name: "background", kind: .boolean,
                description: "true: its message stays under people's messages (ambient content); by default it takes the board at its time.")
        ],
        run: { arguments, api in
            try await api.call(.addSchedule, body: .object(arguments.values)) { view in
                view?["next"]?.string.map { "added; next run \($0)" } ?? "added"
            }
        })

    static let remove = BoardTool(
        name: "remove_schedule", title: "Remove a recurring message",
        description: "Removes a recurring message added through the API (those in the configuration file are changed there).",
        parameters: [.init(name: "name", kind: .string, description: "The schedule's name.", required: true)],
        destructive: true,
        run: { arguments, api in
            let name = arguments.string("name") ?? ""
            return try await api.call(.removeSchedule, name) { _ in "removed \(name)" }
        })
}

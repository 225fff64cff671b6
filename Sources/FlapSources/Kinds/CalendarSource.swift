import FlapCore
import FlapJSON
import FoundationEssentials

/// An iCalendar file or URL: `next` (`title`, `location`, `start` as 14:30 or "all day", `day`
/// as today, tomorrow or a weekday, `date`, `in` as "12 min", "2 h 5 min", "1 day" or "3 days",
/// `minutes`, `at` as an RFC 3339 instant), `events` (the next ones, each the same), `today`
/// (today's, each the same), `today_count`, and with `countdown`, `countdown` (`title`, `days`, `date`).
public struct CalendarSource: SourceKind {
    /// A calendar's own settings.
    public struct Options: Sendable, Equatable {
        /// How many events `events` and `today` give.
        public var limit: Int
        /// The event to count down to, by title (the next one whose title contains it).
        public var countdown: String?

        /// Options keeping `limit` events, counting down to the event named `countdown` if any.
        public init(limit: Int = SourceSettings.defaultLimit, countdown: String? = nil) {
            self.limit = limit
            self.countdown = countdown
        }
    }

    /// A calendar source kind (it holds nothing: the settings say which calendar).
    public init() {}
    /// `kind = "calendar"`.
    public var name: String { "calendar" }
    /// Every 30 minutes.
    public var defaultInterval: Duration? { .seconds(1800) }
    /// `countdown`: the event to count the days to.
    public var settings: [String: String] { ["countdown": "counts down to an event", "limit": "keeps a number of events or headlines"] }
    /// Its events start: `starts_within` triggers apply.
    public var hasEvents: Bool { true }

    /// Reads `limit` and `countdown`.
    public func options(reading table: inout some SourceTableReading) -> Options {
        Options(limit: table.int("limit") ?? SourceSettings.defaultLimit, countdown: table.string("countdown"))
    }

    /// Its limit is 1 to 50.
    public func problems(_ options: Options) -> [(key: String, problem: String)] {
        SourceSettings.limitProblems(options.limit)
    }

    /// Reads the body as an iCalendar file.
    public func read(_ body: [UInt8], options: Options) throws(SourceProblem) -> Calendar {
        try Calendar(bytes: body)
    }

    /// `next`, `events`, `today`, `today_count` and `countdown`, as the type's comment lists them.
    public func values(_ calendar: Calendar?, options: Options, placeholder: String, now: Date, zone: ZoneRules) -> [String: JSONValue] {
        Self.calendarValues(calendar, options: options, placeholder: placeholder, now: now, zone: zone)
    }

    /// Events left out while reading (past the budget, or with rules that cannot be followed).
    public func warnings(_ calendar: Calendar, options: Options) -> [String] {
        calendar.warnings
    }

    static func calendarValues(_ calendar: Calendar?, options: Options, placeholder: String, now: Date, zone: ZoneRules) -> [String: JSONValue] {
        let placeholder = JSONValue.string(placeholder)
        let emptyEvent: JSONValue = .object([
            "title": placeholder, "location": placeholder, "start": placeholder, "day": placeholder,
            "date": placeholder, "in": placeholder, "minutes": placeholder, "at": placeholder
        ])
        var values: [String: JSONValue] = ["next": emptyEvent, "events": .array([]), "today": .array([]), "today_count": placeholder]
        if options.countdown != nil { values["countdown"] = .object(["title": placeholder, "days": placeholder, "date": placeholder]) }
        guard let calendar else { return values }
        let today = zone.wall(at: now).floorDivided(by: 86_400)
        let tomorrow = zone.instant(wall: (today + 1) * 86_400)
        let horizon = now.addingTimeInterval(400 * 86_400)
        // Today's and the next ones from the next five weeks (further only when they hold too
        // few); the countdown's event alone over the whole horizon.
        let dayStart = zone.instant(wall: today * 86_400)
        var all = calendar.occurrences(from: dayStart, to: dayStart.addingTimeInterval(35 * 86_400), zone: zone)
        if all.filter({ $0.start >= now }).count < options.limit { all = calendar.occurrences(from: dayStart, to: horizon, zone: zone) }
        let upcoming = all.filter { $0.start >= now }
        let todays = all.filter { $0.start < tomorrow }
        func describe(_ occurrence: Calendar.Occurrence) -> JSONValue {
            let wall = zone.wall(at: occurrence.start)
            let day = wall.floorDivided(by: 86_400)
            let date = CivilDate(day: day)
            let minutes = Int(max(0, occurrence.start.timeIntervalSince(now)) / 60)
            return .object([
                "title": .string(occurrence.title), "location": .string(occurrence.location),
                "start": .string(occurrence.allDay ? "all day" : SourceValues.clock(wall)),
                "day": .string(day == today ? "today" : day == today + 1 ? "tomorrow" : weekdays[CivilDate.weekday(day: day)]),
                "date": .string("\(date.year)-\(SourceValues.two(date.month))-\(SourceValues.two(date.day))"),
                "in": .string(occurrence.start <= now ? "now" : span(minutes: minutes, days: Int(day - today), allDay: occurrence.allDay)),
                "minutes": .number(Double(minutes)),
                "at": .string(occurrence.start.formatted(.iso8601))
            ])
        }
        if let next = upcoming.first { values["next"] = describe(next) }
        values["events"] = .array(upcoming.prefix(options.limit).map(describe))
        values["today"] = .array(todays.prefix(options.limit).map(describe))
        values["today_count"] = .number(Double(todays.count))
        if let wanted = options.countdown?.lowercased(),
            let target = calendar.occurrences(from: dayStart, to: horizon, zone: zone, titled: { $0.lowercased().contains(wanted) })
                .first(where: { $0.end > now })
        {
            let day = zone.wall(at: target.start).floorDivided(by: 86_400)
            let date = CivilDate(day: day)
            values["countdown"] = .object([
                "title": .string(target.title), "days": .number(Double(max(0, day - today))),
                "date": .string("\(date.year)-\(SourceValues.two(date.month))-\(SourceValues.two(date.day))")
            ])
        }
        return values
    }

    static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

    /// "12 min", "1 h 40 min", "1 day", "3 days": how far off, as a board says it after "IN".
    static func span(minutes: Int, days: Int, allDay: Bool) -> String {
        if allDay || minutes >= 24 * 60 { return days <= 0 ? "today" : days == 1 ? "1 day" : "\(days) days" }
        if minutes < 60 { return "\(minutes) min" }
        return minutes % 60 == 0 ? "\(minutes / 60) h" : "\(minutes / 60) h \(minutes % 60) min"
    }

}

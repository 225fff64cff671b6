import FlapCore
import FlapJSON
import FoundationEssentials

/// What a source gives templates, at an instant in the board's zone. Every name a source can
/// give is always there: a value that is missing (never fetched, not in the document) or stale
/// is the source's placeholder (`--`), so a template shows `--°` rather than failing or going
/// blank. `{{name.stale}}` is true then, and `{{name.updated}}` says when it last arrived.
///
/// - json and webhook: each named value.
/// - feed: `title`, `headline` (the first), `headlines` (a list of `title`), `count`.
/// - calendar: `next` (`title`, `location`, `start` as 14:30 or "all day", `day` as today,
///   tomorrow or a weekday, `date`, `in` as "12 min", "2 h 5 min", "1 day" or "3 days", `minutes`, `at` as an
///   RFC 3339 instant),
///   `events` (the next ones, each the same), `today` (today's, each the same), `today_count`,
///   and with `countdown`, `countdown` (`title`, `days`, `date`).
public enum SourceValues {
    public static func values(of definition: SourceDefinition, content: SourceContent?, fresh: Bool, updated: Date?,
                              now: Date, zone: ZoneRules) -> JSONValue {
        let placeholder = JSONValue.string(definition.placeholder)
        let usable = fresh ? content : nil
        var values: [String: JSONValue] = [
            "stale": .bool(!fresh || content == nil),
            "updated": updated.map { .string(clock(zone.wall(at: $0))) } ?? placeholder,
        ]
        switch definition.kind {
        case .json:
            let found = usable?.pointed(definition.pointers).values ?? [:]
            for name in definition.pointers.keys { values[name] = found[name] ?? placeholder }
        case .webhook:
            let pushed: [String: JSONValue]
            if case .pushed(let given)? = usable { pushed = given } else { pushed = [:] }
            for name in definition.fields { values[name] = pushed[name] ?? placeholder }
        case .feed:
            if case .feed(let feed)? = usable {
                let items = Array(feed.items.prefix(definition.limit))
                values["title"] = .string(feed.title)
                values["headline"] = items.first.map { .string($0.title) } ?? placeholder
                values["headlines"] = .array(items.map { .object(["title": .string($0.title)]) })
                values["count"] = .number(Double(items.count))
            } else {
                values["title"] = placeholder
                values["headline"] = placeholder
                values["headlines"] = .array([])
                values["count"] = placeholder
            }
        case .calendar:
            let calendar: Calendar?
            if case .calendar(let found)? = usable { calendar = found } else { calendar = nil }
            values.merge(calendarValues(calendar, definition: definition, now: now, zone: zone)) { $1 }
        }
        return .object(values)
    }

    static func calendarValues(_ calendar: Calendar?, definition: SourceDefinition, now: Date, zone: ZoneRules) -> [String: JSONValue] {
        let placeholder = JSONValue.string(definition.placeholder)
        let emptyEvent: JSONValue = .object(["title": placeholder, "location": placeholder, "start": placeholder, "day": placeholder,
                                             "date": placeholder, "in": placeholder, "minutes": placeholder, "at": placeholder])
        var values: [String: JSONValue] = ["next": emptyEvent, "events": .array([]), "today": .array([]), "today_count": placeholder]
        if definition.countdown != nil { values["countdown"] = .object(["title": placeholder, "days": placeholder, "date": placeholder]) }
        guard let calendar else { return values }
        let today = zone.wall(at: now).floorDivided(by: 86_400)
        let tomorrow = zone.instant(wall: (today + 1) * 86_400)
        let horizon = now.addingTimeInterval(400 * 86_400)
        // Today's and the next ones from the next five weeks (further only when they hold too
        // few); the countdown's event alone over the whole horizon.
        let dayStart = zone.instant(wall: today * 86_400)
        var all = calendar.occurrences(from: dayStart, to: dayStart.addingTimeInterval(35 * 86_400), zone: zone)
        if all.filter({ $0.start >= now }).count < definition.limit { all = calendar.occurrences(from: dayStart, to: horizon, zone: zone) }
        let upcoming = all.filter { $0.start >= now }
        let todays = all.filter { $0.start < tomorrow }
        func describe(_ occurrence: Calendar.Occurrence) -> JSONValue {
            let wall = zone.wall(at: occurrence.start)
            let day = wall.floorDivided(by: 86_400)
            let date = CivilDate(day: day)
            let minutes = Int(max(0, occurrence.start.timeIntervalSince(now)) / 60)
            return .object([
                "title": .string(occurrence.title), "location": .string(occurrence.location),
                "start": .string(occurrence.allDay ? "all day" : clock(wall)),
                "day": .string(day == today ? "today" : day == today + 1 ? "tomorrow" : weekdays[CivilDate.weekday(day: day)]),
                "date": .string("\(date.year)-\(two(date.month))-\(two(date.day))"),
                "in": .string(occurrence.start <= now ? "now" : span(minutes: minutes, days: Int(day - today), allDay: occurrence.allDay)),
                "minutes": .number(Double(minutes)),
                "at": .string(occurrence.start.formatted(.iso8601)),
            ])
        }
        if let next = upcoming.first { values["next"] = describe(next) }
        values["events"] = .array(upcoming.prefix(definition.limit).map(describe))
        values["today"] = .array(todays.prefix(definition.limit).map(describe))
        values["today_count"] = .number(Double(todays.count))
        if let wanted = definition.countdown?.lowercased(),
           let target = calendar.occurrences(from: dayStart, to: horizon, zone: zone, titled: { $0.lowercased().contains(wanted) })
               .first(where: { $0.end > now }) {
            let day = zone.wall(at: target.start).floorDivided(by: 86_400)
            let date = CivilDate(day: day)
            values["countdown"] = .object(["title": .string(target.title), "days": .number(Double(max(0, day - today))),
                                           "date": .string("\(date.year)-\(two(date.month))-\(two(date.day))")])
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

    static func clock(_ wall: Int64) -> String {
        let seconds = Int(wall - wall.floorDivided(by: 86_400) * 86_400)
        return "\(two(seconds / 3600)):\(two(seconds % 3600 / 60))"
    }

    static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}

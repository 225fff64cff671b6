import FlapCore
import FoundationEssentials

/// When a recurring message fires: days of the week at times of day, or a cron expression, in
/// an IANA time zone. Each local time fires once, as a person expects across daylight-saving
/// changes: a time the clocks skip (02:30 on the night they go forward) fires at the first
/// moment after the gap (03:00), and a time they repeat (01:30 on the night they go back)
/// fires at its first occurrence only.
public struct Recurrence: Sendable, Equatable {
    public enum Rule: Sendable, Equatable {
        /// Weekdays 0 Sunday … 6 Saturday; minutes after midnight, ascending.
        case weekly(days: Set<Int>, minutes: [Int])
        case cron(CronExpression)
    }

    public let rule: Rule
    public let timeZone: ZoneRules

    public init(rule: Rule, timeZone: ZoneRules) {
        self.rule = rule
        self.timeZone = timeZone
    }

    /// The first occurrence after `date`, or nil when there is none within eight years.
    public func next(after date: Date) -> Date? {
        let firstDay = Int(timeZone.wall(at: date).floorDivided(by: 86400))
        // A day after the skipped or repeated hour may hold the answer; a cron day may be years off.
        let days = if case .weekly = rule { 9 } else { 366 * 8 + 2 }
        for day in firstDay..<(firstDay + days) {
            let (month, dayOfMonth, weekday) = Self.civil(day: day)
            let minutes: [Int]
            switch rule {
            case .weekly(let weekdays, let times):
                guard weekdays.contains(weekday) else { continue }
                minutes = times
            case .cron(let cron):
                guard cron.matches(month: month, day: dayOfMonth, weekday: weekday) else { continue }
                minutes = cron.hours.sorted().flatMap { h in cron.minutes.sorted().map { h * 60 + $0 } }
            }
            for minute in minutes {
                let instant = timeZone.instant(wall: Int64(day) * 86400 + Int64(minute) * 60)
                if instant > date { return instant }
            }
        }
        return nil
    }

    /// The latest occurrence in (`after`, `upTo`], looking back no further than `window`.
    public func latest(after: Date, upTo: Date, window: TimeInterval) -> Date? {
        var cursor = max(after, upTo.addingTimeInterval(-window))
        var found: Date?
        while let next = next(after: cursor), next <= upTo {
            found = next
            cursor = next
        }
        return found
    }

    /// Month (1–12), day of the month and weekday (0 Sunday) of day number `day` since 1970-01-01.
    static func civil(day: Int) -> (month: Int, day: Int, weekday: Int) {
        let date = CivilDate(day: Int64(day))
        return (date.month, date.day, CivilDate.weekday(day: Int64(day)))
    }
}

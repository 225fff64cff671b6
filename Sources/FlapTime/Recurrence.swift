import FlapCore
import FoundationEssentials

/// When a recurring message fires: days of the week at times of day, or a cron expression, in
/// an IANA time zone. Each local time fires once, as a person expects across daylight-saving
/// changes: a time the clocks skip (02:30 on the night they go forward) fires at the first
/// moment after the gap (03:00), and a time they repeat (01:30 on the night they go back)
/// fires at its first occurrence only.
public struct Recurrence: Sendable, Equatable {
    /// When it fires, on the local calendar.
    public enum Rule: Sendable, Equatable {
        /// Weekdays 0 Sunday … 6 Saturday; minutes after midnight, ascending.
        case weekly(days: Set<Int>, minutes: [Int])
        case cron(CronExpression)
        /// Weekdays, times of day, and times that follow the sun at `location` (a day without
        /// that sunrise or sunset, in polar night or midnight sun, has none).
        case sun(days: Set<Int>, minutes: [Int], events: [SunTime], location: GeoLocation)
    }

    /// Sunrise or sunset, some minutes before or after: `sunset+30m`.
    public struct SunTime: Sendable, Equatable {
        /// Sunrise or sunset.
        public var event: SunTimes.Event
        /// Minutes after it (negative: before).
        public var offsetMinutes: Int

        /// `event`, `offsetMinutes` later.
        public init(_ event: SunTimes.Event, offsetMinutes: Int = 0) {
            self.event = event
            self.offsetMinutes = offsetMinutes
        }
    }

    /// When it fires.
    public let rule: Rule
    /// The zone its times are in.
    public let timeZone: ZoneRules

    /// `rule` in `timeZone`.
    public init(rule: Rule, timeZone: ZoneRules) {
        self.rule = rule
        self.timeZone = timeZone
    }

    /// The first occurrence after `date`, or nil when there is none within eight years.
    public func next(after date: Date) -> Date? {
        let firstDay = Int(timeZone.wall(at: date).floorDivided(by: 86400))
        // A day after the skipped or repeated hour may hold the answer; a cron day may be years off.
        // A day after the skipped or repeated hour may hold the answer; a cron day may be years
        // off; the sun may stay down (or up) for months.
        let days =
            switch rule {
            case .weekly: 9
            case .sun: 190
            case .cron: 366 * 8 + 2
            }
        for day in (firstDay - 1)..<(firstDay + days) {
            let (month, dayOfMonth, weekday) = Self.civil(day: day)
            let minutes: [Int]
            var sun: [Date] = []
            switch rule {
            case .weekly(let weekdays, let times):
                guard weekdays.contains(weekday) else { continue }
                minutes = times
            case .cron(let cron):
                guard cron.matches(month: month, day: dayOfMonth, weekday: weekday) else { continue }
                minutes = cron.hours.sorted().flatMap { h in cron.minutes.sorted().map { h * 60 + $0 } }
            case .sun(let weekdays, let times, let events, let location):
                guard weekdays.contains(weekday) else { continue }
                minutes = times
                sun = events.compactMap { time in
                    SunTimes.instant(of: time.event, day: Int64(day), at: location)?.addingTimeInterval(TimeInterval(time.offsetMinutes * 60))
                }
            }
            let instants = minutes.map { timeZone.instant(wall: Int64(day) * 86400 + Int64($0) * 60) } + sun
            if let first = instants.filter({ $0 > date }).min() { return first }
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

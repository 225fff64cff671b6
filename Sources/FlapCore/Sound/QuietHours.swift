import FoundationEssentials

/// A daily span of local time, such as 22:00–07:00 (it may wrap past midnight).
public struct QuietHours: Sendable, Equatable, CustomStringConvertible {
    /// Minutes after midnight.
    public var start: Int
    /// Minutes after midnight (before `start` when the span wraps past midnight).
    public var end: Int

    /// Parses `HH:MM-HH:MM` (the hour may have one digit; spaces around either time), start and
    /// end differing. Exactly what the API description's pattern for `quietHours` allows: a sign,
    /// a third digit or a tab taken here would be a value the description calls invalid.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false).map(Self.withoutSpaces)
        guard parts.count == 2, let start = Self.minutes(parts[0]), let end = Self.minutes(parts[1]), start != end else { return nil }
        self.start = start
        self.end = end
    }

    static func withoutSpaces(_ text: Substring) -> Substring {
        guard let first = text.firstIndex(where: { $0 != " " }), let last = text.lastIndex(where: { $0 != " " }) else { return "" }
        return text[first...last]
    }

    static func minutes(_ text: Substring) -> Int? {
        let hm = text.split(separator: ":", omittingEmptySubsequences: false)
        guard hm.count == 2, (1...2).contains(hm[0].utf8.count), hm[1].utf8.count == 2,
            hm[0].utf8.allSatisfy({ (0x30...0x39).contains($0) }), hm[1].utf8.allSatisfy({ (0x30...0x39).contains($0) }),
            let h = Int(hm[0]), let m = Int(hm[1]), (0..<24).contains(h), (0..<60).contains(m)
        else { return nil }
        return h * 60 + m
    }

    /// Whether `date` falls in the span, in `zone`'s local time.
    public func contains(_ date: Date, zone: ZoneRules) -> Bool {
        let minute = zone.minuteOfDay(at: date)
        return start < end ? (start..<end).contains(minute) : (minute >= start || minute < end)
    }

    /// The first instant after `date` at which the span starts or ends, in `zone`'s local
    /// time. On a night the clocks go forward past a boundary, the first moment after it.
    public func nextChange(after date: Date, zone: ZoneRules) -> Date {
        let today = zone.wall(at: date).floorDivided(by: 86400)
        let candidates = (today...today + 2).flatMap { day in
            [start, end].map { zone.instant(wall: day * 86400 + Int64($0) * 60) }
        }
        return candidates.filter { $0 > date }.min() ?? date.addingTimeInterval(86400)
    }

    /// `22:00-07:00`.
    public var description: String {
        func clock(_ minutes: Int) -> String {
            let (hours, minute) = (minutes / 60, minutes % 60)
            return (hours < 10 ? "0" : "") + "\(hours):" + (minute < 10 ? "0" : "") + "\(minute)"
        }
        return clock(start) + "-" + clock(end)
    }
}

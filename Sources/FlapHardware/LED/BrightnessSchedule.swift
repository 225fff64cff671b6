/// How bright a display is through the day: levels from given times of day until the next
/// (night dimming), or one level all day.
public struct BrightnessSchedule: Sendable, Equatable {
    /// A level from a time of day on.
    public struct Change: Sendable, Equatable {
        /// Minutes after local midnight.
        public var minute: Int
        /// 0 (dark) … 1 (full).
        public var level: Double

        /// `level` from `minute` after midnight.
        public init(minute: Int, level: Double) {
            self.minute = minute
            self.level = level
        }
    }

    /// In time-of-day order.
    public let changes: [Change]

    /// One level all day, kept within 0…1.
    public init(level: Double) {
        changes = [Change(minute: 0, level: max(0, min(1, level)))]
    }

    /// Levels from the given times on; refused when empty, a time is repeated or a level is out of range.
    public init(_ changes: [Change]) throws(ScheduleError) {
        guard !changes.isEmpty else { throw ScheduleError("a brightness schedule needs at least one time") }
        for change in changes {
            guard (0..<1440).contains(change.minute) else { throw ScheduleError("\(change.minute) is not a minute of the day") }
            guard (0...1).contains(change.level) else {
                throw ScheduleError("brightness \(change.level) at \(Self.clock(change.minute)) is not between 0 and 1")
            }
        }
        let sorted = changes.sorted { $0.minute < $1.minute }
        if let twice = zip(sorted, sorted.dropFirst()).first(where: { $0.minute == $1.minute }) {
            throw ScheduleError("\(Self.clock(twice.0.minute)) is given twice")
        }
        self.changes = sorted
    }

    /// The level at `minute` after midnight: the last change at or before it, or, before the
    /// day's first change, the day's last (night runs over midnight).
    public func level(atMinute minute: Int) -> Double {
        (changes.last { $0.minute <= minute } ?? changes.last)?.level ?? 1
    }

    /// Reads "HH:MM" as minutes after midnight; nil when it is not a time of day.
    public static func minute(of text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[1].count == 2, let h = Int(parts[0]), let m = Int(parts[1]),
            (0..<24).contains(h), (0..<60).contains(m)
        else { return nil }
        return h * 60 + m
    }

    static func clock(_ minute: Int) -> String {
        let m = minute % 60
        return "\(minute / 60):\(m < 10 ? "0" : "")\(m)"
    }
}

/// A schedule that cannot be used, and why.
public struct ScheduleError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong with it.
    public var description: String
    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}

import FoundationEssentials

/// `flapctl send --at`: "07:00" (the next time the clock here shows it: today, or tomorrow if
/// that has passed) or an RFC 3339 instant such as 2026-12-24T18:00:00+01:00.
enum SendTime {
    static func parse(_ text: String, now: Date, timeZone: TimeZone = .current) throws -> Date {
        if let instant = try? Date(text, strategy: .iso8601) { return instant }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 2, parts[1].count == 2,
            let hour = Int(parts[0]), let minute = Int(parts[1]), (0..<24).contains(hour), (0..<60).contains(minute)
        else {
            throw InputError("--at \(text.debugDescription): give a time of day such as 07:00, or an instant such as 2026-12-24T18:00:00+01:00")
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        // The next moment the wall clock reads hour:minute (on a night the clocks go forward past
        // it, the first moment after).
        guard
            let next = calendar.nextDate(
                after: now, matching: DateComponents(hour: hour, minute: minute, second: 0),
                matchingPolicy: .nextTime, direction: .forward)
        else {
            throw InputError("--at \(text): no such time ahead")
        }
        return next
    }
}

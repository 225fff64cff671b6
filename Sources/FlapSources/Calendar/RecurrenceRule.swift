import FlapCore

/// An RRULE (RFC 5545 §3.3.10) with FREQ DAILY, WEEKLY, MONTHLY or YEARLY and INTERVAL, COUNT,
/// UNTIL, BYDAY (with ordinals: `-1FR`), BYMONTHDAY, BYMONTH, BYSETPOS and WKST: what calendars
/// write for events. Each period (day, week, month, year) is walked day by day and its days kept
/// by the BY parts, as python-dateutil does (never from the year 1 to today: see
/// ``seriesEnd(from:budget:)``); a rule part it does not read (BYHOUR, BYWEEKNO,
/// HOURLY, ...) is a problem, and its event is left out and named rather than shown wrong.
struct RecurrenceRule: Sendable, Equatable {
    enum Frequency: String, Sendable { case daily = "DAILY", weekly = "WEEKLY", monthly = "MONTHLY", yearly = "YEARLY" }

    struct WeekdayRule: Sendable, Equatable {
        /// 0 Sunday … 6 Saturday.
        var weekday: Int
        /// 2: the second in the month (or year); -1: the last; nil: every.
        var ordinal: Int?
    }

    var frequency: Frequency
    var interval = 1
    var count: Int?
    var until: CalendarTime?
    var byDay: [WeekdayRule] = []
    var byMonthDay: [Int] = []
    var byMonth: [Int] = []
    var bySetPos: [Int] = []
    /// 0 Sunday … 6 Saturday; Monday unless WKST says.
    var weekStart = 1

    /// The longest INTERVAL read: every 10 000 periods is already past anything a board shows.
    static let longestInterval = 10_000

    static let weekdays = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"]

    init(_ text: String, line: Int, zone: ZoneRules?) throws(SourceProblem) {
        func fail(_ what: String) -> SourceProblem { SourceProblem("line \(line): RRULE \(what)") }
        var parts: [String: String] = [:]
        for part in text.split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { throw fail("part \(String(part).debugDescription) is not NAME=value") }
            parts[pair[0].uppercased()] = String(pair[1])
        }
        guard let frequencyName = parts.removeValue(forKey: "FREQ") else { throw fail("has no FREQ") }
        guard let frequency = Frequency(rawValue: frequencyName.uppercased()) else {
            throw fail("FREQ=\(frequencyName) is not read (DAILY, WEEKLY, MONTHLY and YEARLY are)")
        }
        self.frequency = frequency
        func integers(_ key: String, _ range: ClosedRange<Int>) throws(SourceProblem) -> [Int] {
            guard let value = parts.removeValue(forKey: key) else { return [] }
            var numbers: [Int] = []
            for item in value.split(separator: ",") {
                guard let number = Int(item), range.contains(number), number != 0 else {
                    throw fail("\(key)=\(value) is not a list of numbers in \(range) (not 0)")
                }
                numbers.append(number)
            }
            return numbers
        }
        if let value = parts.removeValue(forKey: "INTERVAL") {
            guard let number = Int(value), (1...Self.longestInterval).contains(number) else {
                throw fail("INTERVAL=\(value) is not a whole number from 1 to \(Self.longestInterval)")
            }
            interval = number
        }
        if let value = parts.removeValue(forKey: "COUNT") {
            guard let number = Int(value), number >= 1 else { throw fail("COUNT=\(value) is not a whole number from 1") }
            count = number
        }
        if let value = parts.removeValue(forKey: "UNTIL") {
            until = try CalendarTime.parse(value, zone: zone, line: line, property: "RRULE's UNTIL")
        }
        byMonthDay = try integers("BYMONTHDAY", -31...31)
        byMonth = try integers("BYMONTH", 1...12)
        bySetPos = try integers("BYSETPOS", -366...366)
        if let value = parts.removeValue(forKey: "BYDAY") {
            for item in value.split(separator: ",") {
                let name = item.suffix(2).uppercased()
                guard let weekday = Self.weekdays.firstIndex(of: name) else { throw fail("BYDAY=\(value): \(item) is not a weekday (MO, -1FR, 2SU)") }
                let ordinalText = item.dropLast(2)
                var ordinal: Int?
                if !ordinalText.isEmpty {
                    guard let number = Int(ordinalText.hasPrefix("+") ? ordinalText.dropFirst() : ordinalText), number != 0, abs(number) <= 53 else {
                        throw fail("BYDAY=\(value): \(item) is not a weekday (MO, -1FR, 2SU)")
                    }
                    ordinal = number
                }
                byDay.append(WeekdayRule(weekday: weekday, ordinal: ordinal))
            }
        }
        if let value = parts.removeValue(forKey: "WKST") {
            guard let weekday = Self.weekdays.firstIndex(of: value.uppercased()) else { throw fail("WKST=\(value) is not a weekday") }
            weekStart = weekday
        }
        if count != nil && until != nil { throw fail("has both COUNT and UNTIL") }
        if let unread = parts.keys.sorted().first { throw fail("part \(unread) is not read") }
    }

    /// The wall-clock starts of its occurrences from `start` (the event's DTSTART) up to
    /// `endWall`, ascending, stopping at `lastWall` (a COUNT rule's last occurrence, from
    /// ``seriesEnd(from:budget:)``) and UNTIL (`untilReached` says when a wall time is past it).
    /// The periods wholly before `notBefore` are skipped rather than walked: a weekly event since
    /// 2012 is not walked week by week to find next week's. Each day looked at costs one from
    /// `budget`; at nil the walk stops where it is.
    func walls(
        from start: CalendarTime, notBefore: Int64 = .min, through endWall: Int64, lastWall: Int64? = nil, budget: inout Int,
        until untilReached: (Int64) -> Bool
    ) -> [Int64] {
        let startDate = CivilDate(day: start.day)
        let parts = filled(from: startDate, startDay: start.day)
        var result: [Int64] = []
        var period = firstPeriod(reaching: notBefore.floorDivided(by: 86_400), from: startDate, startDay: start.day)
        while true {
            let days = periodDays(period, from: startDate, startDay: start.day)
            guard let first = days.first, first < Self.lastDay, first * 86_400 <= endWall else { return result }
            budget -= days.count
            if budget < 0 { return result }
            for day in chosen(days, parts) {
                let wall = day * 86_400 + start.secondOfDay
                guard wall >= start.wall else { continue }
                if let lastWall, wall > lastWall { return result }
                if untilReached(wall) || wall > endWall { return result }
                result.append(wall)
            }
            period += 1
        }
    }

    /// Where a COUNT rule's series ends.
    enum SeriesEnd: Equatable {
        /// The wall time of its last occurrence (before `start` when it has none).
        case at(Int64)
        /// Past the year 9999, or no COUNT: as good as never.
        case never
        /// Finding it would take more than the budget.
        case overBudget
    }

    /// Where the series of a rule with COUNT ends, found once when the calendar is read so that
    /// every later look skips ahead as it does for UNTIL instead of counting from DTSTART. The
    /// Gregorian calendar repeats every 400 years (146 097 days, a whole number of weeks), so
    /// once one such cycle of periods has been walked and its occurrences counted, whole cycles
    /// are skipped arithmetically: a daily COUNT=1000000000 from the year 1 costs two cycles'
    /// walk, not a million years'. Each day looked at costs one from `budget`.
    func seriesEnd(from start: CalendarTime, budget: inout Int) -> SeriesEnd {
        guard let count else { return .never }
        let startDate = CivilDate(day: start.day)
        let parts = filled(from: startDate, startDay: start.day)
        let cycle = cyclePeriods
        var emitted = 0, last: Int64?
        var cycleStart: (period: Int, emitted: Int)?
        var period = 0
        while true {
            let days = periodDays(period, from: startDate, startDay: start.day)
            guard let first = days.first, first < Self.lastDay else { return .never }
            budget -= days.count
            if budget < 0 { return .overBudget }
            for day in chosen(days, parts) {
                let wall = day * 86_400 + start.secondOfDay
                guard wall >= start.wall else { continue }
                emitted += 1
                last = wall
                if emitted >= count { return .at(wall) }
            }
            period += 1
            // Period 0 is cut short by DTSTART; the cycle is counted from period 1.
            if period == 1 {
                cycleStart = (1, emitted)
            } else if let counted = cycleStart, period == counted.period + cycle {
                cycleStart = nil
                let perCycle = emitted - counted.emitted
                // A cycle without an occurrence: none will ever come (BYMONTHDAY=31;BYMONTH=2).
                guard perCycle > 0 else { return .at(last ?? start.wall - 1) }
                let skipped = (count - emitted - 1) / perCycle
                // Each cycle is 400 years: 25 of them pass the year 9999 from any start.
                guard skipped <= 25 else { return .never }
                period += skipped * cycle
                emitted += skipped * perCycle
            }
        }
    }

    /// The first day of the year 10 000: no walk goes past it.
    static let lastDay = CivilDate.days(year: 10_000, month: 1, day: 1)

    /// How many periods make 400 years, after which every period's days repeat.
    private var cyclePeriods: Int {
        func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
        let length: Int
        switch frequency {
        case .daily: length = 146_097
        case .weekly: length = 20_871
        case .monthly: length = 4_800
        case .yearly: length = 400
        }
        return length / gcd(interval, length)
    }

    private struct Parts { var byDay: [WeekdayRule], byMonthDay: [Int], byMonth: [Int] }

    /// The BY parts, with DTSTART's day, weekday or month where the rule names none.
    private func filled(from startDate: CivilDate, startDay: Int64) -> Parts {
        var parts = Parts(byDay: byDay, byMonthDay: byMonthDay, byMonth: byMonth)
        if byDay.isEmpty && byMonthDay.isEmpty {
            switch frequency {
            case .yearly:
                if byMonth.isEmpty { parts.byMonth = [startDate.month] }
                parts.byMonthDay = [startDate.day]
            case .monthly: parts.byMonthDay = [startDate.day]
            case .weekly: parts.byDay = [WeekdayRule(weekday: CivilDate.weekday(day: startDay), ordinal: nil)]
            case .daily: break
            }
        }
        return parts
    }

    /// A period's days that the BY parts and BYSETPOS keep, ascending.
    private func chosen(_ days: [Int64], _ parts: Parts) -> [Int64] {
        let matching = days.filter { matches($0, byDay: parts.byDay, byMonthDay: parts.byMonthDay, byMonth: parts.byMonth) }
        guard !bySetPos.isEmpty else { return matching }
        return bySetPos.compactMap { position in
            let index = position > 0 ? position - 1 : matching.count + position
            return matching.indices.contains(index) ? matching[index] : nil
        }.sorted()
    }

    /// The index of a period no later than the one holding `day` (one before it, for safety).
    private func firstPeriod(reaching day: Int64, from start: CivilDate, startDay: Int64) -> Int {
        guard day > startDay else { return 0 }
        let target = CivilDate(day: day)
        let periods: Int64
        switch frequency {
        case .daily: periods = day - startDay
        case .weekly: periods = (day - startDay) / 7
        case .monthly: periods = Int64((target.year - start.year) * 12 + target.month - start.month)
        case .yearly: periods = Int64(target.year - start.year)
        }
        return max(0, Int(periods / Int64(interval)) - 1)
    }

    /// The days (numbers since 1970) of the `index`-th period of the rule, counted in INTERVALs.
    private func periodDays(_ index: Int, from start: CivilDate, startDay: Int64) -> [Int64] {
        let step = index * interval
        switch frequency {
        case .daily:
            return [startDay + Int64(step)]
        case .weekly:
            let weekFirst = startDay - Int64((CivilDate.weekday(day: startDay) - weekStart + 7) % 7) + Int64(step * 7)
            return (0..<7).map { weekFirst + Int64($0) }
        case .monthly:
            let months = start.month - 1 + step
            let year = start.year + months / 12, month = months % 12 + 1
            let first = CivilDate.days(year: year, month: month, day: 1)
            return (0..<CivilDate.daysIn(month: month, year: year)).map { first + Int64($0) }
        case .yearly:
            let year = start.year + step
            let months = byMonth.isEmpty ? Array(1...12) : byMonth.sorted()
            return months.flatMap { month in
                let first = CivilDate.days(year: year, month: month, day: 1)
                return (0..<CivilDate.daysIn(month: month, year: year)).map { first + Int64($0) }
            }
        }
    }

    private func matches(_ day: Int64, byDay: [WeekdayRule], byMonthDay: [Int], byMonth: [Int]) -> Bool {
        let date = CivilDate(day: day)
        if !byMonth.isEmpty && !byMonth.contains(date.month) { return false }
        let monthLength = CivilDate.daysIn(month: date.month, year: date.year)
        if !byMonthDay.isEmpty && !byMonthDay.contains(where: { $0 > 0 ? $0 == date.day : monthLength + $0 + 1 == date.day }) { return false }
        guard !byDay.isEmpty else { return true }
        let weekday = CivilDate.weekday(day: day)
        // Ordinals count within the month, or within the year for a yearly rule without BYMONTH.
        let inYear = frequency == .yearly && byMonth.isEmpty
        let (position, length): (Int, Int) =
            inYear
            ? (Int(day - CivilDate.days(year: date.year, month: 1, day: 1)) + 1, CivilDate.daysIn(month: 2, year: date.year) == 29 ? 366 : 365)
            : (date.day, monthLength)
        return byDay.contains { rule in
            guard rule.weekday == weekday else { return false }
            guard let ordinal = rule.ordinal, frequency == .monthly || frequency == .yearly else { return true }
            return ordinal > 0 ? (position - 1) / 7 + 1 == ordinal : (length - position) / 7 + 1 == -ordinal
        }
    }
}

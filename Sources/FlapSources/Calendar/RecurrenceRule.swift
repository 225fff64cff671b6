import FlapCore

/// An RRULE (RFC 5545 §3.3.10) with FREQ DAILY, WEEKLY, MONTHLY or YEARLY and INTERVAL, COUNT,
/// UNTIL, BYDAY (with ordinals: `-1FR`), BYMONTHDAY, BYMONTH, BYSETPOS and WKST: what calendars
/// write for events. Each period (day, week, month, year) is walked day by day and its days kept
/// by the BY parts, as python-dateutil does; a rule part it does not read (BYHOUR, BYWEEKNO,
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
                guard let number = Int(item), range.contains(number), number != 0 else { throw fail("\(key)=\(value) is not a list of numbers in \(range) (not 0)") }
                numbers.append(number)
            }
            return numbers
        }
        if let value = parts.removeValue(forKey: "INTERVAL") {
            guard let number = Int(value), number >= 1 else { throw fail("INTERVAL=\(value) is not a whole number from 1") }
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
    /// `endWall`, ascending, stopping at COUNT and UNTIL (`untilReached` says when a wall time
    /// is past it). Without COUNT, the periods wholly before `notBefore` are skipped rather than
    /// walked: a weekly event since 2012 is not walked week by week to find next week's.
    func walls(from start: CalendarTime, notBefore: Int64 = .min, through endWall: Int64, until untilReached: (Int64) -> Bool) -> [Int64] {
        let startDay = start.day
        let startDate = CivilDate(day: startDay)
        var byDay = byDay, byMonthDay = byMonthDay, byMonth = byMonth
        if byDay.isEmpty && byMonthDay.isEmpty {
            switch frequency {
            case .yearly:
                if byMonth.isEmpty { byMonth = [startDate.month] }
                byMonthDay = [startDate.day]
            case .monthly: byMonthDay = [startDate.day]
            case .weekly: byDay = [WeekdayRule(weekday: CivilDate.weekday(day: startDay), ordinal: nil)]
            case .daily: break
            }
        }
        var result: [Int64] = []
        var emitted = 0
        let first = count == nil ? firstPeriod(reaching: notBefore.floorDivided(by: 86_400), from: startDate, startDay: startDay) : 0
        // A rule no day ever matches (BYMONTHDAY=31 with BYMONTH=2) must still end.
        for period in first..<(first + 200_000) {
            let days = periodDays(period, from: startDate, startDay: startDay)
            guard let first = days.first, first * 86_400 <= endWall else { break }
            var chosen = days.filter { matches($0, byDay: byDay, byMonthDay: byMonthDay, byMonth: byMonth) }
            if !bySetPos.isEmpty {
                let all = chosen
                chosen = bySetPos.compactMap { position in
                    let index = position > 0 ? position - 1 : all.count + position
                    return all.indices.contains(index) ? all[index] : nil
                }.sorted()
            }
            for day in chosen {
                let wall = day * 86_400 + start.secondOfDay
                guard wall >= start.wall else { continue }
                if untilReached(wall) { return result }
                if wall > endWall { return result }
                result.append(wall)
                emitted += 1
                if let count, emitted >= count { return result }
            }
        }
        return result
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
        let (position, length): (Int, Int) = inYear
            ? (Int(day - CivilDate.days(year: date.year, month: 1, day: 1)) + 1, CivilDate.daysIn(month: 2, year: date.year) == 29 ? 366 : 365)
            : (date.day, monthLength)
        return byDay.contains { rule in
            guard rule.weekday == weekday else { return false }
            guard let ordinal = rule.ordinal, frequency == .monthly || frequency == .yearly else { return true }
            return ordinal > 0 ? (position - 1) / 7 + 1 == ordinal : (length - position) / 7 + 1 == -ordinal
        }
    }
}

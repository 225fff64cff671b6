/// A POSIX TZ rule, as at the end of a TZif file: `CET-1CEST,M3.5.0,M10.5.0/3` (standard time
/// one hour east of UTC; summer time from the last Sunday of March at 02:00 to the last Sunday
/// of October at 03:00). It gives the offsets after a zone's last listed transition.
struct PosixZoneRule: Sendable, Equatable {
    /// Seconds east of UTC (POSIX writes them west: CET-1 is one hour east).
    var standardOffset: Int32
    var daylight: Daylight?

    struct Daylight: Sendable, Equatable {
        var offset: Int32
        var start: Moment
        var end: Moment
    }

    /// A day of the year and a local time on it.
    struct Moment: Sendable, Equatable {
        enum Day: Sendable, Equatable {
            /// Mm.w.d: weekday d (0 Sunday) of week w (5: the last) of month m.
            case monthWeekDay(month: Int, week: Int, weekday: Int)
            /// Jn: day 1–365, February 29 never counted.
            case julian(Int)
            /// n: day 0–365, February 29 counted.
            case zeroBased(Int)
        }
        var day: Day
        /// Seconds after local midnight (may be negative or past 24 h).
        var time: Int64
    }

    /// Reads `text`; nil when it is not a rule this reader knows.
    init?(_ text: String) {
        var scanner = Scanner(Array(text.utf8))
        guard scanner.name(), let standard = scanner.offset() else { return nil }
        standardOffset = Int32(-standard)
        if scanner.atEnd { daylight = nil; return }
        guard scanner.name() else { return nil }
        let daylightOffset = scanner.peekIsOffset ? scanner.offset().map { Int32(-$0) } : standardOffset + 3600
        guard let daylightOffset, scanner.expect(","), let start = scanner.moment(), scanner.expect(","), let end = scanner.moment(), scanner.atEnd
        else {
            return nil
        }
        daylight = Daylight(offset: daylightOffset, start: start, end: end)
    }

    func offset(at instant: Int64) -> Int32 {
        guard let daylight else { return standardOffset }
        let year = CivilDate(day: (instant + Int64(standardOffset)).floorDivided(by: 86400)).year
        let start = utc(daylight.start, year: year, offsetBefore: standardOffset)
        let end = utc(daylight.end, year: year, offsetBefore: daylight.offset)
        let inDaylight = start < end ? (start <= instant && instant < end) : !(end <= instant && instant < start)
        return inDaylight ? daylight.offset : standardOffset
    }

    func nextTransition(after instant: Int64) -> Int64? {
        guard let daylight else { return nil }
        let year = CivilDate(day: (instant + Int64(standardOffset)).floorDivided(by: 86400)).year
        return (year - 1...year + 1).flatMap { year in
            [utc(daylight.start, year: year, offsetBefore: standardOffset), utc(daylight.end, year: year, offsetBefore: daylight.offset)]
        }.filter { $0 > instant }.min()
    }

    /// The instant `moment` happens in `year`, its local time read at `offsetBefore`.
    private func utc(_ moment: Moment, year: Int, offsetBefore: Int32) -> Int64 {
        let day: Int64
        switch moment.day {
        case .monthWeekDay(let month, let week, let weekday):
            let first = CivilDate.days(year: year, month: month, day: 1)
            let firstWeekday = CivilDate.weekday(day: first)
            var dayOfMonth = 1 + (weekday - firstWeekday + 7) % 7 + 7 * (week - 1)
            while dayOfMonth > CivilDate.daysIn(month: month, year: year) { dayOfMonth -= 7 }
            day = CivilDate.days(year: year, month: month, day: dayOfMonth)
        case .julian(let n):
            let leapSkip = CivilDate.isLeap(year) && n >= 60 ? 1 : 0
            day = CivilDate.days(year: year, month: 1, day: 1) + Int64(n - 1 + leapSkip)
        case .zeroBased(let n):
            day = CivilDate.days(year: year, month: 1, day: 1) + Int64(n)
        }
        return day * 86400 + moment.time - Int64(offsetBefore)
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { index >= bytes.count }
        var peek: UInt8? { atEnd ? nil : bytes[index] }
        var peekIsOffset: Bool {
            peek.map { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } ?? false
        }

        mutating func expect(_ character: Character) -> Bool {
            guard peek == character.asciiValue else { return false }
            index += 1
            return true
        }

        /// An abbreviation: letters (CET), or anything in angle brackets (<+0330>).
        mutating func name() -> Bool {
            if expect("<") {
                while let byte = peek, byte != UInt8(ascii: ">") { index += 1 }
                return expect(">")
            }
            let start = index
            while let byte = peek, (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) {
                index += 1
            }
            return index - start >= 3
        }

        mutating func number() -> Int? {
            let start = index
            var value = 0
            while let byte = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                index += 1
            }
            return index > start ? value : nil
        }

        /// [+|-]hh[:mm[:ss]] in seconds.
        mutating func offset() -> Int? {
            let sign = expect("-") ? -1 : 1
            if sign == 1 { _ = expect("+") }
            guard let hours = number() else { return nil }
            var seconds = hours * 3600
            if expect(":") { guard let minutes = number() else { return nil }; seconds += minutes * 60 }
            if expect(":") { guard let rest = number() else { return nil }; seconds += rest }
            return sign * seconds
        }

        mutating func moment() -> Moment? {
            let day: Moment.Day
            if expect("M") {
                guard let month = number(), expect("."), let week = number(), expect("."), let weekday = number(),
                    (1...12).contains(month), (1...5).contains(week), (0...6).contains(weekday)
                else { return nil }
                day = .monthWeekDay(month: month, week: week, weekday: weekday)
            } else if expect("J") {
                guard let n = number(), (1...365).contains(n) else { return nil }
                day = .julian(n)
            } else {
                guard let n = number(), (0...365).contains(n) else { return nil }
                day = .zeroBased(n)
            }
            var time: Int64 = 7200
            if expect("/") {
                guard let seconds = offset() else { return nil }
                time = Int64(seconds)
            }
            return Moment(day: day, time: time)
        }
    }
}

/// Gregorian dates as days since 1970-01-01 (proleptic, any year).
public struct CivilDate: Sendable, Equatable {
    /// The year, any (proleptic Gregorian).
    public var year: Int
    /// The month, 1–12.
    public var month: Int
    /// The day of the month, 1–31.
    public var day: Int

    /// The date of day number `day` since 1970-01-01.
    public init(day: Int64) {
        let shifted = day + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        self.day = Int(dayOfYear - (153 * monthIndex + 2) / 5 + 1)
        month = Int(monthIndex < 10 ? monthIndex + 3 : monthIndex - 9)
        year = Int(yearOfEra + era * 400) + (month <= 2 ? 1 : 0)
    }

    /// The weekday (0 Sunday … 6 Saturday) of day number `day` since 1970-01-01 (a Thursday).
    public static func weekday(day: Int64) -> Int { Int(((day % 7) + 11) % 7) }

    /// Day number since 1970-01-01 of a date.
    public static func days(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = Int64((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1)
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    /// The days in `month` (1–12) of `year`.
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

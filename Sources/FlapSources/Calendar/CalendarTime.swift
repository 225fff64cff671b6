import FlapCore
import FoundationEssentials

/// A DATE or DATE-TIME as iCalendar writes it: a day (all-day), a time in a zone (`TZID=`), a
/// time in UTC (`Z`), or a floating time (the board's zone). Kept as the wall clock it names, so
/// a recurrence repeats at the same local time across a daylight-saving change.
struct CalendarTime: Sendable, Equatable {
    /// Seconds since 1970 as if the wall clock were UTC (a day's midnight for a DATE).
    var wall: Int64
    /// nil: floating, in whichever zone the board is in.
    var zone: ZoneRules?
    var isDate: Bool

    var day: Int64 { wall.floorDivided(by: 86_400) }
    var secondOfDay: Int64 { wall - day * 86_400 }

    func instant(floating board: ZoneRules) -> Date { (zone ?? board).instant(wall: wall) }

    /// The same kind of time on another wall clock reading.
    func with(wall: Int64) -> CalendarTime { CalendarTime(wall: wall, zone: zone, isDate: isDate) }

    /// `20261126`, `20261126T090000`, `20261126T080000Z`; `zone` from the line's TZID.
    static func parse(_ text: String, zone: ZoneRules?, line: Int, property: String) throws(SourceProblem) -> CalendarTime {
        let digits = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= digits.count, digits[range].allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            return Int(String(decoding: digits[range], as: UTF8.self))
        }
        let problem = SourceProblem(
            "line \(line): \(property) \(text.debugDescription) is not a date (20261126) or date-time (20261126T090000, 20261126T080000Z)")
        guard let year = number(0..<4), let month = number(4..<6), let day = number(6..<8), (1...12).contains(month),
            (1...CivilDate.daysIn(month: month, year: year)).contains(day)
        else { throw problem }
        let days = CivilDate.days(year: year, month: month, day: day)
        if digits.count == 8 { return CalendarTime(wall: days * 86_400, zone: nil, isDate: true) }
        guard digits.count >= 15, digits[8] == UInt8(ascii: "T"), let hour = number(9..<11), let minute = number(11..<13),
            let second = number(13..<15),
            hour < 24, minute < 60, second <= 60
        else { throw problem }
        let wall = days * 86_400 + Int64(hour * 3600 + minute * 60 + min(second, 59))
        if digits.count == 16, digits[15] == UInt8(ascii: "Z") { return CalendarTime(wall: wall, zone: .utc, isDate: false) }
        guard digits.count == 15 else { throw problem }
        return CalendarTime(wall: wall, zone: zone, isDate: false)
    }
}

/// An iCalendar DURATION: `P1D`, `PT1H30M`, `P2W`, `-PT15M`, in seconds.
enum CalendarDuration {
    static func seconds(_ text: String, line: Int) throws(SourceProblem) -> Int64 {
        var rest = Substring(text), sign: Int64 = 1
        if rest.hasPrefix("-") { sign = -1; rest = rest.dropFirst() } else if rest.hasPrefix("+") { rest = rest.dropFirst() }
        guard rest.hasPrefix("P") else { throw SourceProblem("line \(line): DURATION \(text.debugDescription) is not a duration (P1D, PT1H30M)") }
        rest = rest.dropFirst()
        var total: Int64 = 0, number = "", inTime = false
        for character in rest {
            if character.isNumber { number.append(character); continue }
            if character == "T" { inTime = true; continue }
            // Up to some 30 years a part: enough for any event, and no sum can overflow.
            guard number.count <= 9, let value = Int64(number) else {
                throw SourceProblem("line \(line): DURATION \(text.debugDescription) is not a duration (P1D, PT1H30M) of at most 9 digits a part")
            }
            let unit: Int64
            switch (character, inTime) {
            case ("W", false): unit = 7 * 86_400
            case ("D", false): unit = 86_400
            case ("H", true): unit = 3600
            case ("M", true): unit = 60
            case ("S", true): unit = 1
            default: throw SourceProblem("line \(line): DURATION \(text.debugDescription) is not a duration (P1D, PT1H30M)")
            }
            total = min(total + value * unit, 1 << 50)
            number = ""
        }
        return sign * total
    }
}

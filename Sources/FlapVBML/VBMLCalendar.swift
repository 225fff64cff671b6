import FlapCore

/// A month as Vestaboard's renderer draws it on the left of a board: `M/YY` and the days' initials
/// on top, then a row a week, each starting with its first and last date (`1-4`, `12-18`) and a
/// cell a day in the day colour, any day given its own colour.
public struct VBMLCalendar: Sendable, Equatable {
    var month: Int
    var year: Int
    var days: [(day: Int, colour: Int)] = []
    var dayColour = 65
    var hideDaysOfWeek = false
    var hideDates = false
    var hideMonthYear = false

    /// Calendars are equal when they show the same.
    public static func == (a: Self, b: Self) -> Bool {
        a.month == b.month && a.year == b.year && a.days.elementsEqual(b.days, by: { $0 == $1 }) && a.dayColour == b.dayColour
            && a.hideDaysOfWeek == b.hideDaysOfWeek && a.hideDates == b.hideDates && a.hideMonthYear == b.hideMonthYear
    }

    /// Six rows of 22.
    func rows() -> [[Int]] {
        let count = CivilDate.daysIn(month: month, year: year)
        let offset = CivilDate.weekday(day: CivilDate.days(year: year, month: month, day: 1))  // 0 = Sunday
        func digit(_ character: Character) -> Int { hideDates ? 0 : (character == "0" ? 36 : (character.wholeNumberValue ?? 0) + 26) }
        func digits(_ number: Int) -> [Character] { Array(String(number)) }
        let dash = hideDates ? 0 : 44
        let blanks = { (n: Int) in [Int](repeating: 0, count: max(n, 0)) }
        let colours = { (n: Int) in [Int](repeating: dayColour, count: max(n, 0)) }

        let firstEnd = 7 - offset
        var first: [Int] = firstEnd == 1 ? [0, 0, 0, digit("1"), 0] : [0, digit("1"), dash, digit(digits(firstEnd)[0]), 0]
        first += blanks(offset) + colours(7 - offset) + blanks(10)

        func week(from start: Int, to end: Int) -> [Int] {
            let s = digits(start), e = digits(end)
            var row = s.count > 1 ? [digit(s[0]), digit(s[1])] : [0, digit(s[0])]
            row.append(dash)
            row += e.count > 1 ? [digit(e[0]), digit(e[1])] : [digit(e[0]), 0]
            return row + colours(7) + blanks(10)
        }
        let second = week(from: firstEnd + 1, to: firstEnd + 7)
        let third = week(from: firstEnd + 8, to: firstEnd + 14)
        let fourth = week(from: firstEnd + 15, to: firstEnd + 21)

        let fifthStart = firstEnd + 22
        let fifthEnd = min(firstEnd + count, count)
        var fifth: [Int]
        if fifthStart > count {
            fifth = blanks(22)
        } else {
            let s = digits(fifthStart), e = digits(fifthEnd), single = fifthStart == fifthEnd
            let inRow = fifthEnd - fifthStart + 1
            fifth = [digit(s[0]), digit(s[1]), single ? 0 : dash, single || hideDates ? 0 : digit(e[0]), single || hideDates ? 0 : digit(e[1])]
            fifth += colours(inRow) + blanks(22 - (5 + inRow))
        }

        let code: (Character) -> Int = { $0 == "0" ? 36 : ($0.wholeNumberValue ?? 0) + 26 }
        let monthDigits: [Int] = String(month).map(code)
        let yearDigits: [Int] = String(year).dropFirst(2).prefix(2).map(code)
        let monthYear: [Int] = hideMonthYear ? blanks(5) : monthDigits + [59] + yearDigits
        let initials = hideDaysOfWeek ? blanks(7) : [19, 13, 20, 23, 20, 6, 19]
        let header = monthYear + blanks(5 - monthYear.count) + initials + blanks(10)

        var calendar = [header, first, second, third, fourth, fifth]
        for (day, colour) in days where day <= count {
            // Days are 1 or more (the reader refuses others), so these are whole, never negative.
            let row = (day + offset - 1) / 7 + 1
            let column = (day + offset - 1) % 7
            let place = row > 5 ? (5, column == 0 ? 12 : 13) : (row, column + 5)
            calendar[place.0][place.1] = colour
        }
        return calendar
    }

}

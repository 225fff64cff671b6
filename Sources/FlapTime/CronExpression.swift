import FoundationEssentials

/// A five-field cron expression (minute hour day-of-month month day-of-week), as crontab(5)
/// reads it: `*`, numbers, ranges `a-b`, steps `*/n` and `a-b/n`, lists `a,b`, month and day
/// names (`jan`, `mon`); day of week 0 or 7 is Sunday. The two day fields combine as Vixie/ISC
/// cron (and crontab.guru) combine them: when either starts with `*` (`*`, `*/2`), a day must
/// match both; when neither does, a day matching either is a match.
public struct CronExpression: Sendable, Equatable, CustomStringConvertible {
    /// The minutes it fires at.
    public let minutes: Set<Int>
    /// The hours it fires at.
    public let hours: Set<Int>
    /// The days of the month it fires on.
    public let daysOfMonth: Set<Int>
    /// The months it fires in.
    public let months: Set<Int>
    /// 0 Sunday … 6 Saturday.
    public let daysOfWeek: Set<Int>
    /// Whether a day must match both day fields (one of them starts with `*`) rather than either.
    let daysMatchBoth: Bool
    /// The expression as written.
    public let description: String

    /// The expression in `text` (five fields), or what is wrong with it.
    public init(_ text: String) throws(ScheduleError) {
        let fields = text.split(whereSeparator: \.isWhitespace).map(String.init)
        guard fields.count == 5 else {
            throw ScheduleError(
                "cron", "\(text.debugDescription) has \(fields.count) fields; a cron expression has five: minute hour day-of-month month day-of-week")
        }
        description = fields.joined(separator: " ")
        minutes = try Self.field(fields[0], name: "minute", range: 0...59)
        hours = try Self.field(fields[1], name: "hour", range: 0...23)
        daysOfMonth = try Self.field(fields[2], name: "day of month", range: 1...31)
        months = try Self.field(
            fields[3], name: "month", range: 1...12, names: ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"],
            firstName: 1)
        daysOfWeek = Set(
            try Self.field(fields[4], name: "day of week", range: 0...7, names: ["sun", "mon", "tue", "wed", "thu", "fri", "sat"], firstName: 0).map {
                $0 % 7
            })
        // cron's DOM_STAR and DOW_STAR: a field beginning with `*`, even `*/2`, counts as unrestricted.
        daysMatchBoth = fields[2].hasPrefix("*") || fields[4].hasPrefix("*")
        // A day of the month that no chosen month has (31 February) can never fire.
        let longest = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        if daysMatchBoth && !months.contains(where: { month in daysOfMonth.contains { $0 <= longest[month - 1] } }) {
            throw ScheduleError(
                "cron",
                "\(description.debugDescription) can never fire: no chosen month has day \(daysOfMonth.sorted().map(String.init).joined(separator: ", "))"
            )
        }
    }

    /// Whether a day (month 1–12, day 1–31, weekday 0 Sunday … 6) is one the expression fires on.
    func matches(month: Int, day: Int, weekday: Int) -> Bool {
        guard months.contains(month) else { return false }
        return daysMatchBoth
            ? daysOfMonth.contains(day) && daysOfWeek.contains(weekday)
            : daysOfMonth.contains(day) || daysOfWeek.contains(weekday)
    }

    private static func field(
        _ text: String, name: String, range: ClosedRange<Int>, names: [String] = [], firstName: Int = 0
    ) throws(ScheduleError) -> Set<Int> {
        func value(_ part: Substring) throws(ScheduleError) -> Int {
            if let n = Int(part), range.contains(n) { return n }
            if let index = names.firstIndex(of: part.lowercased()) { return index + firstName }
            throw ScheduleError(
                "cron",
                "the \(name) field: \(String(part).debugDescription) is not \(range.lowerBound)–\(range.upperBound)\(names.isEmpty ? "" : " or a name such as \(names[1])")"
            )
        }
        var result = Set<Int>()
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let pieces = item.split(separator: "/", omittingEmptySubsequences: false)
            guard pieces.count <= 2, !pieces[0].isEmpty else {
                throw ScheduleError("cron", "the \(name) field: \(String(item).debugDescription) is not a value, range or step")
            }
            var step = 1
            if pieces.count == 2 {
                guard let n = Int(pieces[1]), n > 0 else {
                    throw ScheduleError("cron", "the \(name) field: the step in \(String(item).debugDescription) must be a whole number above 0")
                }
                step = n
            }
            let span: ClosedRange<Int>
            if pieces[0] == "*" {
                span = range
            } else if let dash = pieces[0].firstIndex(of: "-") {
                let low = try value(pieces[0][..<dash]), high = try value(pieces[0][pieces[0].index(after: dash)...])
                guard low <= high else { throw ScheduleError("cron", "the \(name) field: \(String(pieces[0]).debugDescription) runs backwards") }
                span = low...high
            } else {
                let single = try value(pieces[0])
                span = single...(pieces.count == 2 ? range.upperBound : single)
            }
            result.formUnion(stride(from: span.lowerBound, through: span.upperBound, by: step))
        }
        return result
    }
}

/// A schedule that cannot be used, naming the field.
public struct ScheduleError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The field, as the API and the file name it.
    public var field: String
    /// What is wrong with it.
    public var problem: String
    /// A problem of `field`.
    public init(_ field: String, _ problem: String) {
        self.field = field
        self.problem = problem
    }
    /// The field and the problem.
    public var description: String { "\(field): \(problem)" }
}

/// The days of the week a schedule runs on, read from what people write: day names and their
/// abbreviations (`mon`, `Monday`, `tues`, `thurs`), ranges (`mon-fri`, and `fri-mon` across the
/// week's end), lists (`sat,sun`, or separate entries), and `weekdays`, `weekends`, `daily`.
/// The file, the API, flapctl, MCP and the page all come here, so they cannot disagree.
public struct ScheduleDays: Sendable, Equatable {
    /// 0 is Sunday, as in cron.
    public var weekdays: Set<Int>

    /// The days `weekdays` (0 Sunday … 6 Saturday).
    public init(weekdays: Set<Int>) { self.weekdays = weekdays }

    /// Every accepted spelling of each day, Sunday first; nothing else is a day (`monkey` is not Monday).
    static let spellings: [[String]] = [
        ["sun", "sunday"], ["mon", "monday"], ["tue", "tues", "tuesday"], ["wed", "weds", "wednesday"],
        ["thu", "thur", "thurs", "thursday"], ["fri", "friday"], ["sat", "saturday"]
    ]
    static let groups: [String: Set<Int>] = ["daily": Set(0...6), "weekdays": Set(1...5), "weekends": [0, 6]]

    /// Entries after commas are split, at most: a week written day by day twice over and more.
    public static let mostEntries = 32
    /// Characters of `days` in all, at most.
    public static let longest = 256

    /// Every day when `entries` is absent. Each entry may itself be a comma-separated list. No day
    /// at all (`[]`, `""`, `","`) is refused, as is an empty entry between commas: the way to say
    /// every day is to leave `days` out or write `daily`. Errors quote what was written, as written.
    public static func read(_ entries: [String]?) throws(ScheduleError) -> ScheduleDays {
        guard let entries else { return ScheduleDays(weekdays: Set(0...6)) }
        let length = entries.reduce(0) { $0 + $1.count }
        guard length <= longest else { throw ScheduleError("days", "is \(length) characters long; a week's days take at most \(longest)") }
        let words = entries.flatMap { entry in
            entry.split(separator: ",", omittingEmptySubsequences: false).map { (word: $0.trimmingSpaces, entry: entry) }
        }
        guard words.contains(where: { !$0.word.isEmpty }) else {
            throw ScheduleError("days", "names no day: leave days out (or write daily) for every day, or name the days, such as mon-fri")
        }
        guard words.count <= mostEntries else { throw ScheduleError("days", "has \(words.count) entries; at most \(mostEntries)") }
        var days = Set<Int>()
        for (written, entry) in words {
            guard !written.isEmpty else { throw ScheduleError("days", "\(entry.debugDescription) has an empty entry between its commas") }
            let word = written.lowercased()
            if let group = groups[word] { days.formUnion(group); continue }
            let ends = written.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
            guard ends.count <= 2 else { throw refusal(written, in: entry) }
            guard let first = day(ends[0].lowercased()) else { throw refusal(ends[0].isEmpty ? written : ends[0], in: entry) }
            guard ends.count == 2 else { days.insert(first); continue }
            guard let last = day(ends[1].lowercased()) else { throw refusal(ends[1].isEmpty ? written : ends[1], in: entry) }
            var current = first
            days.insert(current)
            while current != last {
                current = (current + 1) % 7
                days.insert(current)
            }
        }
        return ScheduleDays(weekdays: days)
    }

    /// The days as flapd keeps them: `daily`, `weekdays` or `weekends` when they are those, else
    /// each day's short name, Monday first.
    public var names: [String] {
        if let group = Self.groups.first(where: { $0.value == weekdays })?.key { return [group] }
        return [1, 2, 3, 4, 5, 6, 0].filter(weekdays.contains).map { Self.spellings[$0][0] }
    }

    static func day(_ word: String) -> Int? { spellings.firstIndex { $0.contains(word) } }

    static func refusal(_ word: String, in entry: String) -> ScheduleError {
        let whole = Substring(entry).trimmingSpaces == word ? "" : " (in \(entry.debugDescription))"
        return ScheduleError(
            "days",
            "\(word.debugDescription)\(whole) is not a day: write mon … sun (or the whole name), a range such as mon-fri, a list such as sat,sun, or weekdays, weekends, daily"
        )
    }
}

private extension Substring {
    var trimmingSpaces: String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}

/// The days of the week a schedule runs on, read from what people write: day names and their
/// abbreviations (`mon`, `Monday`, `tues`, `thurs`), ranges (`mon-fri`, and `fri-mon` across the
/// week's end), lists (`sat,sun`, or separate entries), and `weekdays`, `weekends`, `daily`.
/// The file, the API, flapctl, MCP and the page all come here, so they cannot disagree.
public struct ScheduleDays: Sendable, Equatable {
    /// 0 is Sunday, as in cron.
    public var weekdays: Set<Int>

    public init(weekdays: Set<Int>) { self.weekdays = weekdays }

    /// Every accepted spelling of each day, Sunday first; nothing else is a day (`monkey` is not Monday).
    static let spellings: [[String]] = [
        ["sun", "sunday"], ["mon", "monday"], ["tue", "tues", "tuesday"], ["wed", "weds", "wednesday"],
        ["thu", "thur", "thurs", "thursday"], ["fri", "friday"], ["sat", "saturday"],
    ]
    static let groups: [String: Set<Int>] = ["daily": Set(0...6), "weekdays": Set(1...5), "weekends": [0, 6]]

    /// Every day when `entries` is empty or absent. Each entry may itself be a comma-separated list.
    public static func read(_ entries: [String]?) throws(ScheduleError) -> ScheduleDays {
        let words = (entries ?? []).flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
            .map { $0.trimmingSpaces.lowercased() }
        guard !words.isEmpty else { return ScheduleDays(weekdays: Set(0...6)) }
        var days = Set<Int>()
        for word in words {
            if let group = groups[word] { days.formUnion(group); continue }
            let ends = word.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
            guard ends.count <= 2, !word.isEmpty else { throw refusal(word) }
            guard let first = day(ends[0]) else { throw refusal(ends[0].isEmpty ? word : ends[0], in: word) }
            guard ends.count == 2 else { days.insert(first); continue }
            guard let last = day(ends[1]) else { throw refusal(ends[1].isEmpty ? word : ends[1], in: word) }
            var current = first
            days.insert(current)
            while current != last {
                current = (current + 1) % 7
                days.insert(current)
            }
        }
        return ScheduleDays(weekdays: days)
    }

    static func day(_ word: String) -> Int? { spellings.firstIndex { $0.contains(word) } }

    static func refusal(_ word: String, in entry: String? = nil) -> ScheduleError {
        let whole = entry.map { $0 == word ? "" : " (in \($0.debugDescription))" } ?? ""
        return ScheduleError("days", "\(word.debugDescription)\(whole) is not a day: write mon … sun (or the whole name), a range such as mon-fri, a list such as sat,sun, or weekdays, weekends, daily")
    }
}

private extension Substring {
    var trimmingSpaces: String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}

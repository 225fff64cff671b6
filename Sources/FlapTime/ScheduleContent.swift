import FlapCore
import FlapJSON
import FlapMessaging
import FoundationEssentials

extension ScheduleSettings {
    /// What is wrong with what the schedule shows, checked as its message would be at `now` on a
    /// board of `boardSize`: its text's `{{name}}` placeholders (a schedule's are the board's
    /// date and time and the sources' values, `props`), its layout, its codes, its VBML. A quick
    /// message's content was checked when it was saved.
    public func contentProblems(boardSize: BoardSize, flap62: Flap62? = nil, now: Date, props: [String: JSONValue]) -> [ScheduleError] {
        guard quickMessage == nil else { return [] }
        var parser = MessageParser(boardSize: boardSize, flap62: flap62, source: .schedule, defaultSender: senderID)
        parser.localProps = props
        parser.textPlaceholders = [:]
        do {
            _ = try parser.parse(messageFields(at: now, key: []), now: now)
            return []
        } catch {
            return error.problems.map { ScheduleError($0.field, $0.problem) }
        }
    }
}

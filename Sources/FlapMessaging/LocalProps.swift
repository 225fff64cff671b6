import FlapCore
import FlapJSON
import FoundationEssentials

/// The date and time a VBML document's templates may name, in the board's time zone, filled in
/// when a message arrives (so a quick message or schedule saying `GOOD MORNING {{weekday}}` shows
/// the day it was sent): `weekday` (Thursday), `date` (2026-11-26), `time` (07:05), `day` (26),
/// `month` (November), `year` (2026), `hour` (07) and `minute` (05). A document's own props of
/// the same names win.
public struct LocalProps: Sendable {
    /// The board's time zone.
    public var zone: ZoneRules

    /// The props in `zone`.
    public init(zone: ZoneRules) { self.zone = zone }

    static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    static let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]

    /// `weekday`, `date`, `time`, `day`, `month`, `year`, `hour` and `minute` at `date`, on the board's wall clock.
    public func values(at date: Date) -> [String: JSONValue] {
        let wall = zone.wall(at: date)
        let days = wall.floorDivided(by: 86_400)
        let seconds = Int(wall - days * 86_400)
        let civil = CivilDate(day: days)
        let (year, month, day) = (civil.year, civil.month, civil.day)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let hour = two(seconds / 3600), minute = two(seconds % 3600 / 60)
        return [
            "weekday": .string(Self.weekdays[CivilDate.weekday(day: days)]),
            "date": .string("\(year)-\(two(month))-\(two(day))"),
            "time": .string("\(hour):\(minute)"),
            "day": .string(String(day)), "month": .string(Self.months[month - 1]), "year": .string(String(year)),
            "hour": .string(hour), "minute": .string(minute)
        ]
    }

    /// `document` with these values among its props (its own props of the same names win).
    static func filling(_ document: [String: JSONValue], with values: [String: JSONValue]) -> [String: JSONValue] {
        guard !values.isEmpty else { return document }
        var props = values
        switch document["props"] {
        case nil, .null?: break
        case .object(let own)?: for (name, value) in own { props[name] = value }
        default: return document  // not an object: the renderer names it
        }
        var filled = document
        filled["props"] = .object(props)
        return filled
    }
}

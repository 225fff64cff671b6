import FlapCore
import FlapJSON
import FoundationEssentials

/// The date and time a VBML document's templates may name, in the board's time zone, filled in
/// when a message arrives (so a quick message or schedule saying `GOOD MORNING {{weekday}}` shows
/// the day it was sent): `weekday` (Thursday), `date` (2026-11-26), `time` (07:05), `day` (26),
/// `month` (November), `year` (2026), `hour` (07) and `minute` (05). A document's own props of
/// the same names win.
public struct LocalProps: Sendable {
    public var zone: ZoneRules

    public init(zone: ZoneRules) { self.zone = zone }

    static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    static let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]

    public func values(at date: Date) -> [String: JSONValue] {
        let wall = zone.wall(at: date)
        let days = Int((Double(wall) / 86_400).rounded(.down))
        let seconds = Int(wall) - days * 86_400
        let (year, month, day) = Self.civil(days: days)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let hour = two(seconds / 3600), minute = two(seconds % 3600 / 60)
        return [
            "weekday": .string(Self.weekdays[((days % 7) + 7 + 4) % 7]),
            "date": .string("\(year)-\(two(month))-\(two(day))"),
            "time": .string("\(hour):\(minute)"),
            "day": .string(String(day)), "month": .string(Self.months[month - 1]), "year": .string(String(year)),
            "hour": .string(hour), "minute": .string(minute),
        ]
    }

    /// The Gregorian date `days` after 1970-01-01 (Howard Hinnant's civil_from_days).
    static func civil(days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
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

import FlapCore

/// The zones a calendar's times name by TZID: the system's zone of that name when there is one
/// (Google and Apple write IANA names), else the file's own VTIMEZONE (Outlook writes
/// `W. Europe Standard Time`), read as the POSIX rule its yearly STANDARD and DAYLIGHT parts say.
struct CalendarZones: Sendable {
    private var defined: [String: ZoneRules] = [:]
    private struct Part { var daylight: Bool; var offset: Int?; var start: CalendarTime?; var rule: String? }
    private let directory: String

    init(directory: String = ZoneRules.zoneinfo) { self.directory = directory }

    /// The system's zones already read, by TZID (nil: the system has none of that name).
    private var system: [String: ZoneRules?] = [:]

    /// Reads the system's zone of each TZID once, before the events that name them are read.
    mutating func load(_ tzids: Set<String>) {
        for tzid in tzids where system[tzid] == nil { system[tzid] = .some(Self.systemZone(tzid, directory: directory)) }
    }

    func zone(_ tzid: String?) -> ZoneRules? {
        guard let tzid else { return nil }
        if let known = system[tzid] { return known ?? defined[tzid] }
        return Self.systemZone(tzid, directory: directory) ?? defined[tzid]
    }

    private static func systemZone(_ tzid: String, directory: String) -> ZoneRules? {
        if let system = ZoneRules.named(tzid, directory: directory) { return system }
        // Mozilla's old exports: /mozilla.org/20050126_1/Europe/Berlin.
        let parts = tzid.split(separator: "/")
        if parts.count > 2, let system = ZoneRules.named(parts.suffix(2).joined(separator: "/"), directory: directory) { return system }
        return nil
    }

    func knows(_ tzid: String) -> Bool { zone(tzid) != nil }

    /// Reads one VTIMEZONE's lines (its STANDARD and DAYLIGHT parts inside); a zone it cannot
    /// express is left out, and times naming it are a problem then.
    mutating func define(_ lines: [ContentLine]) {
        guard let tzid = lines.first(where: { $0.name == "TZID" })?.value else { return }
        var parts: [Part] = [], current: Part?
        for line in lines {
            switch (line.name, line.value.uppercased()) {
            case ("BEGIN", "STANDARD"), ("BEGIN", "DAYLIGHT"): current = Part(daylight: line.value.uppercased() == "DAYLIGHT")
            case ("END", "STANDARD"), ("END", "DAYLIGHT"): if let part = current { parts.append(part) }; current = nil
            case ("TZOFFSETTO", _): current?.offset = Self.offset(line.value)
            case ("DTSTART", _): current?.start = try? CalendarTime.parse(line.value, zone: nil, line: line.line, property: "DTSTART")
            case ("RRULE", _): current?.rule = line.value
            default: break
            }
        }
        // The latest definition of each kind is the one in force now.
        let standard = parts.filter { !$0.daylight }.max { ($0.start?.wall ?? 0) < ($1.start?.wall ?? 0) }
        let daylight = parts.filter(\.daylight).max { ($0.start?.wall ?? 0) < ($1.start?.wall ?? 0) }
        guard let standard, let standardOffset = standard.offset else { return }
        var posix = "<STD>\(Self.posixOffset(standardOffset))"
        if let daylight, let daylightOffset = daylight.offset, let toDaylight = Self.moment(daylight), let toStandard = Self.moment(standard) {
            posix += "<DST>\(Self.posixOffset(daylightOffset)),\(toDaylight),\(toStandard)"
        }
        if let zone = ZoneRules(posix: posix) { defined[tzid] = zone }
    }

    /// `+0100` in seconds east.
    private static func offset(_ text: String) -> Int? {
        let digits = text.dropFirst()
        guard let sign = text.first, sign == "+" || sign == "-", digits.count == 4 || digits.count == 6, let number = Int(digits) else { return nil }
        let seconds =
            digits.count == 4 ? (number / 100) * 3600 + (number % 100) * 60 : (number / 10_000) * 3600 + (number / 100 % 100) * 60 + number % 100
        return sign == "-" ? -seconds : seconds
    }

    /// POSIX writes offsets west of UTC: one hour east is -1.
    private static func posixOffset(_ east: Int) -> String {
        let west = -east
        let magnitude = abs(west)
        return "\(west < 0 ? "-" : "")\(magnitude / 3600):\(magnitude % 3600 / 60):\(magnitude % 60)"
    }

    /// A yearly `BYMONTH=3;BYDAY=-1SU` change as POSIX's `M3.5.0/2:0:0`.
    private static func moment(_ part: Part) -> String? {
        guard let rule = part.rule, let start = part.start else { return nil }
        var fields: [String: String] = [:]
        for item in rule.split(separator: ";") {
            let pair = item.split(separator: "=", maxSplits: 1)
            if pair.count == 2 { fields[pair[0].uppercased()] = String(pair[1]) }
        }
        guard fields["FREQ"]?.uppercased() == "YEARLY", let month = fields["BYMONTH"].flatMap({ Int($0) }), let day = fields["BYDAY"] else {
            return nil
        }
        guard let weekday = RecurrenceRule.weekdays.firstIndex(of: String(day.suffix(2)).uppercased()),
            let ordinal = Int(day.dropLast(2).isEmpty ? "1" : String(day.dropLast(2))), ordinal != 0
        else { return nil }
        let week = ordinal < 0 ? 5 : min(ordinal, 5)
        let seconds = start.secondOfDay
        return "M\(month).\(week).\(weekday)/\(seconds / 3600):\(seconds % 3600 / 60):\(seconds % 60)"
    }
}

import FlapCore
import FoundationEssentials

/// An iCalendar file's events (RFC 5545): single and recurring (RRULE, RDATE, EXDATE, a moved
/// or renamed occurrence by RECURRENCE-ID), all-day or timed, in the zones they name. Cancelled
/// events and occurrences are left out. An event this reader cannot read is left out and named
/// in ``warnings``; a file that is not a calendar is a problem.
public struct Calendar: Sendable {
    struct Event: Sendable {
        var uid: String
        var title: String
        var location: String
        var start: CalendarTime
        /// Seconds for a timed event, whole days (times 86 400) for an all-day one.
        var length: Int64
        var rule: RecurrenceRule?
        var extraStarts: [CalendarTime] = []
        var excluded: [CalendarTime] = []
        var recurrenceID: CalendarTime?
        var cancelled = false
    }

    public struct Occurrence: Sendable, Equatable {
        public var title: String
        public var location: String
        public var start: Date
        public var end: Date
        public var allDay: Bool
    }

    var events: [Event] = []
    public private(set) var warnings: [String] = []

    public init(bytes: [UInt8]) throws(SourceProblem) {
        let lines = try ContentLine.lines(String(decoding: bytes, as: UTF8.self))
        guard lines.first?.name == "BEGIN", lines.first?.value.uppercased() == "VCALENDAR" else {
            throw SourceProblem("the answer is not an iCalendar file (it does not begin with BEGIN:VCALENDAR; \(SourceContent.preview(bytes)))")
        }
        var zones = CalendarZones()
        var component: [ContentLine] = [], kind: String?
        var eventBlocks: [[ContentLine]] = []
        for line in lines.dropFirst() {
            if line.name == "BEGIN", kind == nil, ["VEVENT", "VTIMEZONE"].contains(line.value.uppercased()) {
                kind = line.value.uppercased()
                component = []
            } else if line.name == "END", let open = kind, line.value.uppercased() == open {
                if open == "VTIMEZONE" { zones.define(component) } else { eventBlocks.append(component) }
                kind = nil
            } else if kind != nil {
                component.append(line)
            }
        }
        if kind != nil { throw SourceProblem("the calendar ends inside a \(kind!) (its END line is missing)") }
        // Events after every zone is known: a VTIMEZONE may come after the events using it.
        zones.load(Set(eventBlocks.joined().compactMap { $0.parameters["TZID"] }))
        for block in eventBlocks {
            do { events.append(try Self.event(block, zones: zones)) } catch { warnings.append(error.description) }
        }
    }

    private static func event(_ lines: [ContentLine], zones: CalendarZones) throws(SourceProblem) -> Event {
        func time(_ line: ContentLine) throws(SourceProblem) -> CalendarTime {
            let tzid = line.parameters["TZID"]
            if let tzid, !zones.knows(tzid) { throw SourceProblem("line \(line.line): \(line.name) names the time zone \(tzid.debugDescription), which neither the system nor the file defines; the event is left out") }
            return try CalendarTime.parse(line.value, zone: zones.zone(tzid), line: line.line, property: line.name)
        }
        func times(_ line: ContentLine) throws(SourceProblem) -> [CalendarTime] {
            var found: [CalendarTime] = []
            for item in line.value.split(separator: ",") {
                var single = line
                single.value = String(item)
                found.append(try time(single))
            }
            return found
        }
        guard let startLine = lines.first(where: { $0.name == "DTSTART" }) else {
            throw SourceProblem("line \(lines.first?.line ?? 0): an event has no DTSTART; it is left out")
        }
        let start = try time(startLine)
        let title = lines.first { $0.name == "SUMMARY" }?.text ?? ""
        var event = Event(uid: lines.first { $0.name == "UID" }?.value ?? "", title: title.split(whereSeparator: \.isNewline).joined(separator: " "),
                          location: lines.first { $0.name == "LOCATION" }?.text ?? "", start: start, length: start.isDate ? 86_400 : 0)
        for line in lines {
            switch line.name {
            case "DTEND":
                let end = try time(line)
                event.length = max(0, Int64(end.instant(floating: .utc).timeIntervalSince(start.instant(floating: .utc))))
                if start.isDate { event.length = max(86_400, (end.day - start.day) * 86_400) }
            case "DURATION": event.length = max(0, try CalendarDuration.seconds(line.value, line: line.line))
            case "RRULE": event.rule = try RecurrenceRule(line.value, line: line.line, zone: start.zone)
            case "RDATE" where line.parameters["VALUE"]?.uppercased() != "PERIOD": event.extraStarts += try times(line)
            case "EXDATE": event.excluded += try times(line)
            case "RECURRENCE-ID": event.recurrenceID = try time(line)
            case "STATUS": event.cancelled = line.value.uppercased() == "CANCELLED"
            default: break
            }
        }
        return event
    }

    /// The occurrences that overlap `from..<to` (one starting at `from` with no length too),
    /// by start; floating times and all-day dates are in `zone`, the board's. `titled` keeps only
    /// the events whose title it accepts (a countdown's), before any is worked out.
    public func occurrences(from: Date, to: Date, zone: ZoneRules, titled: ((String) -> Bool)? = nil) -> [Occurrence] {
        // An occurrence moved by RECURRENCE-ID replaces the one it names.
        var replaced: [String: Set<Date>] = [:]
        for event in events {
            if let id = event.recurrenceID { replaced[event.uid, default: []].insert(id.instant(floating: zone)) }
        }
        var found: [Occurrence] = []
        for event in events where titled?(event.title) ?? true {
            let starts: [CalendarTime]
            if let rule = event.rule, event.recurrenceID == nil {
                // Walls a day beyond the window: a zone's offset moves a wall time by hours at most.
                let endWall = zone.wall(at: to) + 2 * 86_400
                let untilInstant = rule.until.map { $0.instant(floating: zone) }
                // Back far enough for an occurrence that began before the window and lasts into it.
                let notBefore = zone.wall(at: from) - event.length - 2 * 86_400
                let walls = rule.walls(from: event.start, notBefore: notBefore, through: endWall) { wall in
                    guard let until = rule.until, let untilInstant else { return false }
                    if until.isDate || event.start.isDate { return wall.floorDivided(by: 86_400) > until.day }
                    return event.start.with(wall: wall).instant(floating: zone) > untilInstant
                }
                starts = walls.map { event.start.with(wall: $0) } + event.extraStarts
            } else {
                starts = [event.start] + (event.recurrenceID == nil ? event.extraStarts : [])
            }
            let excluded = Set(event.excluded.map { $0.instant(floating: zone) })
            let excludedDays = Set(event.excluded.map(\.day))
            var seen = Set<Date>()
            for start in starts {
                let instant = start.instant(floating: zone)
                guard seen.insert(instant).inserted else { continue }
                if event.cancelled { continue }
                if start.isDate ? excludedDays.contains(start.day) : excluded.contains(instant) { continue }
                if event.recurrenceID == nil, replaced[event.uid]?.contains(instant) == true { continue }
                let end: Date = start.isDate
                    ? zone.instant(wall: (start.day + max(1, event.length / 86_400)) * 86_400)
                    : instant.addingTimeInterval(TimeInterval(event.length))
                let overlaps = instant < to && (end > from || (instant >= from && instant == end))
                guard overlaps else { continue }
                found.append(Occurrence(title: event.title, location: event.location, start: start.isDate ? zone.instant(wall: start.day * 86_400) : instant,
                                        end: end, allDay: start.isDate))
            }
        }
        return found.sorted { ($0.start, $0.title) < ($1.start, $1.title) }
    }
}

import FlapCore
import FoundationEssentials

/// An iCalendar file's events (RFC 5545): single and recurring (RRULE, RDATE, EXDATE, a moved
/// or renamed occurrence by RECURRENCE-ID), all-day or timed, in the zones they name. Cancelled
/// events and occurrences are left out. An event this reader cannot read is left out and named
/// in ``warnings``; a file that is not a calendar is a problem.
///
/// Anyone who can add an invitation to a shared calendar writes into this file, so the work it
/// can cause has a budget (``Budget``): a recurring event whose series would take more than
/// what is left of it to work out, or beyond ``Budget/recurringEvents``, is left out and named.
public struct Calendar: Sendable {
    struct Event: Sendable {
        var uid: String
        var title: String
        var location: String
        var start: CalendarTime
        /// Seconds for a timed event, whole days (times 86 400) for an all-day one.
        var length: Int64
        var rule: RecurrenceRule?
        /// A COUNT rule's last occurrence (``RecurrenceRule/seriesEnd(from:budget:)``).
        var lastWall: Int64?
        var extraStarts: [CalendarTime] = []
        var excluded: [CalendarTime] = []
        var recurrenceID: CalendarTime?
        var cancelled = false
    }

    /// One event's occurrence in a window, its times resolved in the board's zone.
    public struct Occurrence: Sendable, Equatable {
        /// The event's SUMMARY.
        public var title: String
        /// Its LOCATION, empty when none is given.
        public var location: String
        /// When it begins (an all-day event: midnight in the board's zone).
        public var start: Date
        /// When it ends (DTEND, or DTSTART plus DURATION, or the start for an instant).
        public var end: Date
        /// Whether it is a whole day (a DATE, not a DATE-TIME).
        public var allDay: Bool
    }

    var events: [Event] = []
    /// What was left out while reading, and why (an event past the budget, a rule that cannot be followed).
    public private(set) var warnings: [String] = []

    /// What one calendar may cost.
    public struct Budget: Sendable {
        /// Days looked at while finding where the COUNT rules of one calendar end, when it is
        /// read (a series from the year 1 with a billion occurrences costs some 150 000).
        public var countedDays = 3_000_000
        /// Recurring events read from one calendar (a household's has tens).
        public var recurringEvents = 2_000
        /// Days looked at by one look at the occurrences of a window (each recurring event
        /// costs the days of the periods in the window, a few hundred at most).
        public var daysPerLook = 2_000_000
        /// How far before a window an occurrence is looked for that lasts into it: a longer
        /// event that began earlier is not shown.
        public static let longestEvent: Int64 = 400 * 86_400

        /// The budget a household's calendar never comes near.
        public init() {}
    }

    /// What this calendar may cost to work out.
    let budget: Budget

    /// Reads an iCalendar file; a problem names the line and what is wrong with it.
    public init(bytes: [UInt8], budget: Budget = Budget()) throws(SourceProblem) {
        self.budget = budget
        let lines = try ContentLine.lines(bytes)
        guard lines.first?.name == "BEGIN", lines.first?.value.uppercased() == "VCALENDAR" else {
            throw SourceProblem("the answer is not an iCalendar file (it does not begin with BEGIN:VCALENDAR; \(SourceContent.preview(bytes)))")
        }
        var zones = CalendarZones()
        var component: [ContentLine] = [], kind: String?
        var calendarTZID: String?
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
            } else if line.name == "X-WR-TIMEZONE" {
                calendarTZID = line.value
            }
        }
        if let kind { throw SourceProblem("the calendar ends inside a \(kind) (its END line is missing)") }
        // Events after every zone is known: a VTIMEZONE may come after the events using it.
        zones.load(Set(eventBlocks.joined().compactMap { $0.parameters["TZID"] } + [calendarTZID].compactMap { $0 }))
        // Google's exports name the calendar's zone once (X-WR-TIMEZONE) and write times in UTC:
        // a weekly event at 09:00 there stays at 09:00 across a daylight-saving change.
        let calendarZone = zones.zone(calendarTZID)
        var countedDays = budget.countedDays, recurring = 0, overBudget: [String] = []
        for block in eventBlocks {
            do {
                var event = try Self.event(block, zones: zones, calendarZone: calendarZone)
                if event.rule != nil {
                    recurring += 1
                    guard recurring <= budget.recurringEvents else { overBudget.append(event.title); continue }
                }
                if let rule = event.rule, rule.count != nil {
                    switch rule.seriesEnd(from: event.start, budget: &countedDays) {
                    case .at(let wall): event.lastWall = wall
                    case .never: break
                    case .overBudget:
                        overBudget.append(event.title)
                        countedDays = max(countedDays, 0)
                        continue
                    }
                }
                events.append(event)
            } catch {
                warnings.append(error.description)
            }
        }
        if !overBudget.isEmpty {
            let named = overBudget.prefix(5).map(\.debugDescription).joined(separator: ", ")
            warnings.append(
                "\(overBudget.count) recurring event\(overBudget.count == 1 ? " is" : "s are") left out: the calendar has more repeats "
                    + "than flapd works out for one calendar (\(budget.recurringEvents) recurring events, \(budget.countedDays) days counted through): "
                    + named + (overBudget.count > 5 ? ", …" : ""))
        }
    }

    private static func event(_ lines: [ContentLine], zones: CalendarZones, calendarZone: ZoneRules?) throws(SourceProblem) -> Event {
        func time(_ line: ContentLine) throws(SourceProblem) -> CalendarTime {
            let tzid = line.parameters["TZID"]
            if let tzid, !zones.knows(tzid) {
                throw SourceProblem(
                    "line \(line.line): \(line.name) names the time zone \(tzid.debugDescription), which neither the system nor the file defines; the event is left out"
                )
            }
            let parsed = try CalendarTime.parse(line.value, zone: zones.zone(tzid), line: line.line, property: line.name)
            // A UTC time in a calendar that names its zone is that zone's wall clock (floating
            // times stay the board's), as the x-wr-timezone package reads Google's exports.
            guard let calendarZone, tzid == nil, !parsed.isDate, line.value.hasSuffix("Z") else { return parsed }
            return CalendarTime(wall: calendarZone.wall(at: parsed.instant(floating: .utc)), zone: calendarZone, isDate: false)
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
        var event = Event(
            uid: lines.first { $0.name == "UID" }?.value ?? "", title: title.split(whereSeparator: \.isNewline).joined(separator: " "),
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
        var budget = self.budget.daysPerLook
        for event in events where titled?(event.title) ?? true {
            let starts: [CalendarTime]
            if let rule = event.rule, event.recurrenceID == nil {
                // Walls a day beyond the window: a zone's offset moves a wall time by hours at most.
                let endWall = zone.wall(at: to) + 2 * 86_400
                let untilInstant = rule.until.map { $0.instant(floating: zone) }
                // Back far enough for an occurrence that began before the window and lasts into it.
                let notBefore = zone.wall(at: from) - min(event.length, Budget.longestEvent) - 2 * 86_400
                let walls = rule.walls(from: event.start, notBefore: notBefore, through: endWall, lastWall: event.lastWall, budget: &budget) { wall in
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
                let end: Date =
                    start.isDate
                    ? zone.instant(wall: (start.day + max(1, event.length / 86_400)) * 86_400)
                    : instant.addingTimeInterval(TimeInterval(event.length))
                let overlaps = instant < to && (end > from || (instant >= from && instant == end))
                guard overlaps else { continue }
                found.append(
                    Occurrence(
                        title: event.title, location: event.location, start: start.isDate ? zone.instant(wall: start.day * 86_400) : instant,
                        end: end, allDay: start.isDate))
            }
        }
        return found.sorted { ($0.start, $0.title) < ($1.start, $1.title) }
    }
}

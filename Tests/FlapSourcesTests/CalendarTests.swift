import FlapCore
import Foundation
import TestSupport
import Testing

@testable import FlapSources

@Suite struct CalendarTests {
    static let berlin = ZoneRules.named("Europe/Berlin")!

    static func fixture(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/\(name)")))
    }

    struct Seen: Equatable, CustomStringConvertible {
        var title: String, start: Int, end: Int, allDay: Bool
        var description: String {
            "\(title) \(Date(timeIntervalSince1970: TimeInterval(start))) to \(Date(timeIntervalSince1970: TimeInterval(end)))\(allDay ? " (all day)" : "")"
        }
    }

    /// Every occurrence of two years (across both of 2026's and 2027's daylight-saving changes)
    /// as recurring-ical-events (PyPI) finds them.
    @Test func occurrencesAgreeWithRecurringICalEvents() async throws {
        let bytes = try Self.fixture("household.ics")
        let from = Date(timeIntervalSince1970: 1_767_222_000)  // 2026-01-01 00:00 in Berlin
        let to = from.addingTimeInterval(730 * 86_400)
        let calendar = try Calendar(bytes: bytes)
        #expect(calendar.warnings.isEmpty, "\(calendar.warnings)")
        let ours = calendar.occurrences(from: from, to: to, zone: Self.berlin)
            .map { Seen(title: $0.title, start: Int($0.start.timeIntervalSince1970), end: Int($0.end.timeIntervalSince1970), allDay: $0.allDay) }
        let asked = try JSONSerialization.data(withJSONObject: [
            "ics": String(decoding: bytes, as: UTF8.self), "from": from.timeIntervalSince1970,
            "to": to.timeIntervalSince1970, "zone": "Europe/Berlin"
        ])
        let output = try await PythonPeer.runScript("calendar_peer.py", input: asked)
        let theirs = try #require(try JSONSerialization.jsonObject(with: output) as? [[String: Any]]).map {
            Seen(
                title: $0["title"] as! String, start: Int(($0["start"] as! Double).rounded()), end: Int(($0["end"] as! Double).rounded()),
                allDay: $0["allDay"] as! Bool)
        }
        #expect(ours.count > 250, "a two-year household calendar has hundreds of occurrences, not \(ours.count)")
        let missing = theirs.filter { !ours.contains($0) }, extra = ours.filter { !theirs.contains($0) }
        #expect(missing.isEmpty, "recurring-ical-events has, flapd not: \(missing.prefix(10))")
        #expect(extra.isEmpty, "flapd has, recurring-ical-events not: \(extra.prefix(10))")
        #expect(ours == theirs)
    }

    /// The weekly bins stay at 19:00 on the wall across the change to summer time.
    @Test func aWeeklyEventKeepsItsLocalTimeAcrossDaylightSaving() throws {
        let calendar = try Calendar(bytes: try Self.fixture("household.ics"))
        let march = calendar.occurrences(
            from: Date(timeIntervalSince1970: 1_774_220_400), to: Date(timeIntervalSince1970: 1_775_520_000), zone: Self.berlin
        )
        .filter { $0.title == "Bins out" }
        // 23 March (UTC+1) and 6 April (UTC+2); 30 March is excluded.
        #expect(march.map { Self.berlin.minuteOfDay(at: $0.start) } == [19 * 60, 19 * 60])
        // 2026-03-23 18:00 UTC and 2026-04-06 17:00 UTC.
        #expect(march.map { Int($0.start.timeIntervalSince1970) } == [1_774_288_800, 1_775_494_800])
        #expect(march.last.map { Self.berlin.secondsFromGMT(for: $0.start) } == 7200)
    }

    @Test func problemsNameTheirLine() throws {
        let notACalendar = Array("<html><body>Sign in</body></html>".utf8)
        #expect(throws: SourceProblem.self) { try Calendar(bytes: notACalendar) }
        let broken = Array(
            "BEGIN:VCALENDAR\nBEGIN:VEVENT\nSUMMARY:A\nDTSTART:2026-11-26\nEND:VEVENT\nBEGIN:VEVENT\nSUMMARY:B\nDTSTART:20261126T090000\nRRULE:FREQ=HOURLY\nEND:VEVENT\nBEGIN:VEVENT\nSUMMARY:C\nDTSTART;TZID=Mars/Olympus:20261126T090000\nEND:VEVENT\nEND:VCALENDAR\n"
                .utf8)
        let calendar = try Calendar(bytes: broken)
        #expect(calendar.events.isEmpty)
        #expect(calendar.warnings.count == 3)
        #expect(calendar.warnings[0].hasPrefix("line 4: DTSTART \"2026-11-26\" is not a date"))
        #expect(calendar.warnings[1].contains("line 9: RRULE FREQ=HOURLY is not read"))
        #expect(calendar.warnings[2].contains("line 13") && calendar.warnings[2].contains("Mars/Olympus"))
        let unclosed = Array("BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART:20261126\n".utf8)
        #expect(throws: SourceProblem.self) { try Calendar(bytes: unclosed) }
    }
}

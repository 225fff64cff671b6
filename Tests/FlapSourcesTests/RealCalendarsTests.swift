import FlapCore
import Foundation
import TestSupport
import Testing

@testable import FlapSources

/// Calendars as Google, iCloud, Outlook (Exchange), Nextcloud and Fastmail publish them: CRLF
/// line endings, lines folded at 75 octets (Outlook's inside a character's bytes), a byte-order
/// mark (Nextcloud's here), X-WR-TIMEZONE (Google's and Fastmail's UTC times), Windows zone
/// names. Each is read occurrence by occurrence as icalendar + recurring-ical-events read it.
@Suite struct RealCalendarsTests {
    static let services = ["google", "icloud", "outlook", "nextcloud", "fastmail"]

    static func fixture(_ name: String) throws -> [UInt8] { try CalendarTests.fixture("calendars/\(name).ics") }

    @Test(arguments: services) func readAsRecurringICalEventsReadsIt(_ service: String) async throws {
        let bytes = try Self.fixture(service)
        // The file is as the service serves it: every line ends with CRLF.
        let breaks = bytes.indices.filter { bytes[$0] == 0x0A }
        #expect(!breaks.isEmpty && breaks.allSatisfy { $0 > 0 && bytes[$0 - 1] == 0x0D }, "\(service).ics must have CRLF line endings")
        let calendar = try Calendar(bytes: bytes)
        #expect(calendar.warnings.isEmpty, "\(calendar.warnings)")
        let from = Date(timeIntervalSince1970: 1_767_222_000)  // 2026-01-01 00:00 in Berlin
        let to = from.addingTimeInterval(730 * 86_400)
        let ours = calendar.occurrences(from: from, to: to, zone: CalendarTests.berlin)
            .map {
                CalendarTests.Seen(
                    title: $0.title, start: Int($0.start.timeIntervalSince1970), end: Int($0.end.timeIntervalSince1970), allDay: $0.allDay)
            }
        let theirs = try await Self.peer(bytes, from: from, to: to)
        #expect(ours.count >= 20, "\(service): a year of a household's calendar has more than \(ours.count) occurrences")
        let missing = theirs.filter { !ours.contains($0) }, extra = ours.filter { !theirs.contains($0) }
        #expect(missing.isEmpty, "\(service): recurring-ical-events has, flapd not: \(missing.prefix(10))")
        #expect(extra.isEmpty, "\(service): flapd has, recurring-ical-events not: \(extra.prefix(10))")
        #expect(ours == theirs)
    }

    static func peer(_ bytes: [UInt8], from: Date, to: Date) async throws -> [CalendarTests.Seen] {
        let asked = try JSONSerialization.data(withJSONObject: [
            "ics_base64": Data(bytes).base64EncodedString(), "from": from.timeIntervalSince1970,
            "to": to.timeIntervalSince1970, "zone": "Europe/Berlin"
        ])
        let output = try await PythonPeer.runScript("calendar_peer.py", input: asked)
        return try #require(try JSONSerialization.jsonObject(with: output) as? [[String: Any]]).map {
            CalendarTests.Seen(
                title: $0["title"] as! String, start: Int(($0["start"] as! Double).rounded()), end: Int(($0["end"] as! Double).rounded()),
                allDay: $0["allDay"] as! Bool)
        }
    }

    /// The same calendar with CRLF, LF or CR line endings is the same calendar.
    @Test func everyLineEndingReadsAlike() throws {
        let crlf = try Self.fixture("google")
        let lf = Array(String(decoding: crlf, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n").utf8)
        let cr = Array(String(decoding: crlf, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\r").utf8)
        let from = Date(timeIntervalSince1970: 1_767_222_000), to = from.addingTimeInterval(365 * 86_400)
        let read = try [crlf, lf, cr].map { try Calendar(bytes: $0).occurrences(from: from, to: to, zone: CalendarTests.berlin) }
        #expect(read[0].count > 50)
        #expect(read[0] == read[1] && read[1] == read[2])
    }

    /// Outlook folds at 75 octets, here inside the two bytes of a "ü": joined before decoding.
    @Test func aLineFoldedInsideACharacterIsJoinedFirst() throws {
        let calendar = try Calendar(bytes: try Self.fixture("outlook"))
        #expect(calendar.events.contains { $0.title == "Weihnachtsfeier der Abteilung, Restaurant zum Hof Rübezahl – mit Glühwein" })
        #expect(!calendar.events.contains { $0.title.contains("\u{FFFD}") })
    }

    /// Google writes a weekly event in UTC and names its zone once: the choir stays at 18:00
    /// in Berlin in winter and in summer.
    @Test func googlesUTCTimesKeepTheirLocalTimeByXWRTimezone() throws {
        let calendar = try Calendar(bytes: try Self.fixture("google"))
        let berlin = CalendarTests.berlin
        let choir = calendar.occurrences(
            from: Date(timeIntervalSince1970: 1_767_222_000), to: Date(timeIntervalSince1970: 1_798_758_000), zone: berlin
        )
        .filter { $0.title == "Chorprobe" }
        #expect(choir.count > 40)
        #expect(choir.allSatisfy { berlin.minuteOfDay(at: $0.start) == 18 * 60 }, "\(choir.map { berlin.minuteOfDay(at: $0.start) })")
    }
}

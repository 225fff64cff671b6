import FlapCore
import FlapJSON
import FlapMessaging
import Foundation
import Testing

@testable import FlapSources

/// Sources' values in templates, as docs/sources.md shows them: a quick message's text with a
/// path into a list, VBML with a section over today's events and three braces for a title with
/// an `&`, the placeholder for a stale value, and a misspelt name refused naming what there is.
@Suite struct SourceTemplatesTests {
    static let now = Date(timeIntervalSince1970: 1_795_672_800)  // 2026-11-26 07:00 in Berlin

    static func shelf(updated: Date = now) throws -> SourceShelf {
        let weather = SourceSettings(name: "weather", kind: .json, options: .init(pointers: ["temperature": "/t"]), url: "/x")
        let family = SourceSettings(name: "family", kind: .calendar, options: .init(), url: "/y")
        let ics =
            "BEGIN:VCALENDAR\nBEGIN:VEVENT\nSUMMARY:Swim & gym\nDTSTART;TZID=Europe/Berlin:20261126T170000\nEND:VEVENT\n"
            + "BEGIN:VEVENT\nSUMMARY:Dinner\nDTSTART;TZID=Europe/Berlin:20261126T190000\nEND:VEVENT\nEND:VCALENDAR\n"
        var entries: [String: SourceShelf.Entry] = [:]
        entries["weather"] = .init(
            definition: weather, content: try SourceContent(body: Array(#"{"t": -1.5}"#.utf8), for: weather),
            record: SourceRecord(updated: updated))
        entries["family"] = .init(
            definition: family, content: try SourceContent(body: Array(ics.utf8), for: family), record: SourceRecord(updated: updated))
        return SourceShelf(definitions: [weather, family], zone: CalendarTests.berlin, entries: entries)
    }

    static func parse(_ fields: [String: JSONValue], shelf: SourceShelf, at time: Date = now) throws -> Message {
        var parser = MessageParser(boardSize: .flagship, source: .template, defaultSender: "test")
        parser.localProps = LocalProps(zone: CalendarTests.berlin).values(at: time).merging(shelf.props(at: time)) { $1 }
        parser.textPlaceholders = [:]
        return try parser.parse(fields, now: time).0
    }

    @Test func textNamesValuesAndListItems() throws {
        let message = try Self.parse(
            ["text": "{{weekday}} {{weather.temperature}}C\nTHEN {{family.events.1.title}} AT {{family.events.1.start}}"], shelf: try Self.shelf())
        #expect(message.content == .text("Thursday -1.5C\nTHEN Dinner AT 19:00"))
    }

    @Test func vbmlSectionsOverTodaysEventsAndThreeBracesForAnAmpersand() throws {
        let vbml: JSONValue = ["components": [["template": "{{#family.today}}{{start}} {{{title}}}\n{{/family.today}}{{family.next.title}}"]]]
        let message = try Self.parse(["vbml": vbml], shelf: try Self.shelf())
        let board = try MessageRenderer(size: .flagship).board(for: message)
        let lines = board.lines.map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
        #expect(lines.prefix(3) == ["17:00 SWIM & GYM", "19:00 DINNER", "SWIM &AMP; GYM"])
    }

    @Test func aStaleValueIsThePlaceholderAndAMisspeltNameIsRefused() throws {
        let old = try Self.shelf(updated: Self.now.addingTimeInterval(-7200))
        #expect(try Self.parse(["text": "{{weather.temperature}}C"], shelf: old).content == .text("--C"))
        #expect(throws: MessageErrors.self) { try Self.parse(["text": "{{weather.temprature}}"], shelf: old) }
        do {
            _ = try Self.parse(["text": "{{weather.temprature}}"], shelf: old)
        } catch {
            #expect("\(error)".contains("{{weather.temprature}} is not a placeholder; weather has stale, temperature, updated"), "\(error)")
        }
    }
}

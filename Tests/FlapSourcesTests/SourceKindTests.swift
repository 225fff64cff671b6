import FlapClocks
import FlapCore
import FlapJSON
import Foundation
import Testing
import TestSupport
import FlapSources

/// A kind of source written here and nowhere else plugs in: fetched on its own interval, read,
/// its values in templates and the API, its own checks, its values compared by triggers, with
/// no `switch` over kinds to edit.
@Suite(.cleansUp, .timeLimit(.minutes(1))) struct SourceKindTests {
    /// A plain text file, one line per value: `first`, `lines` (how many) and the line named by `fields`' order.
    struct TextLines: SourceKind {
        var name: String { "lines" }
        var defaultInterval: Duration? { .seconds(120) }

        func problems(_ definition: SourceSettings) -> [(key: String, problem: String)] {
            definition.limit > 10 ? [("limit", "a lines source gives at most 10 lines")] : []
        }

        func read(_ body: [UInt8], for definition: SourceSettings) throws(SourceProblem) -> SourceContent {
            let text = String(decoding: body, as: UTF8.self)
            guard !text.isEmpty else { throw SourceProblem("the file is empty") }
            return SourceContent(text.split(separator: "\n").map(String.init))
        }

        func values(_ content: SourceContent?, definition: SourceSettings, now: Date, zone: ZoneRules) -> [String: JSONValue] {
            let lines = content?.document as? [String] ?? []
            return ["first": lines.first.map(JSONValue.string) ?? .string(definition.placeholder), "lines": .number(Double(lines.count))]
        }

        func warnings(_ content: SourceContent, definition: SourceSettings) -> [String] {
            (content.document as? [String] ?? []).count > definition.limit ? ["more than \(definition.limit) lines; the rest are left out"] : []
        }

        func comparable(_ definition: SourceSettings) -> [String] { ["lines"] }
    }

    @Test func aKindWrittenOnlyInTheTestsIsFetchedReadAndShown() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lines-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        teardown { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/notes.txt"
        try "BUY MILK\nCALL GRANDMA\nWATER PLANTS\n".write(toFile: file, atomically: true, encoding: .utf8)
        let definition = SourceSettings(name: "notes", kind: TextLines(), url: file, limit: 2)
        #expect(definition.every == .seconds(120), "the kind's own interval")
        #expect(definition.problems.isEmpty, "\(definition.problems)")
        #expect(SourceSettings(name: "notes", kind: TextLines(), url: file, limit: 20).problems.map(\.problem) == ["a lines source gives at most 10 lines"])
        // Another kind's setting is named as such, the owner found among the kinds flapd knows.
        #expect(SourceSettings(name: "notes", kind: TextLines(), url: file, countdown: "x").problems.map(\.problem)
                == ["only a calendar source counts down to an event"])

        let clock = ManualClock()
        let now = Date(timeIntervalSince1970: 1_795_672_800)
        let hub = SourceHub(definitions: [definition], zone: .utc, stateDirectory: directory, clock: clock, now: { now }, logger: LogLines().logger)
        #expect(hub.shelf.props(at: now)["notes"]?["first"] == "--")
        let running = Task { await hub.run() }
        teardown { running.cancel(); await running.value }
        #expect(try await eventually { hub.shelf.health(at: now).first?.state == .ok })
        let values = try #require(hub.shelf.props(at: now)["notes"])
        #expect(values["first"] == "BUY MILK" && values["lines"] == 3 && values["stale"] == false, "\(values)")
        let health = try #require(hub.shelf.health(at: now).first)
        #expect(health.kind == "lines" && health.warnings == ["more than 2 lines; the rest are left out"])
        #expect(hub.shelf.views(at: now).first?.every == "2m")
        // Triggers compare what the kind says may be compared.
        let trigger = TriggerSettings(name: "busy", source: "notes", condition: .above(value: "lines", 2), content: ["text": "BUSY DAY"])
        #expect(trigger.problems(sources: [definition]).isEmpty)
        let wrong = TriggerSettings(name: "busy", source: "notes", condition: .above(value: "words", 2), content: ["text": "BUSY DAY"])
        #expect(wrong.problems(sources: [definition]).map(\.problem) == ["notes has no value words (it has lines)"])
    }
}

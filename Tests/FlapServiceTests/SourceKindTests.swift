import FlapClocks
import FlapCore
import FlapJSON
import FlapSources
import Foundation
import TestSupport
import Testing

@testable import FlapService

/// A kind of source written here and nowhere else plugs in: named in flapd.toml with a setting
/// of its own (read by the kind, typed), another kind's setting refused naming that kind, fetched
/// on its own interval, read into its own document, its values in templates and the API, its
/// own checks, its values compared by triggers, with no `switch` over kinds to edit.
@Suite(.cleansUp, .timeLimit(.minutes(3))) struct SourceKindTests {
    /// A plain text file, one line per value: `first`, `lines` (how many), up to `most` lines
    /// kept (`most = 2`), blank lines skipped unless `blank = "keep"`.
    struct TextLines: SourceKind {
        struct Options: Sendable, Equatable {
            var most = 5
            var keepBlank = false
        }

        var name: String { "lines" }
        var defaultInterval: Duration? { .seconds(120) }
        var settings: [String: String] { ["most": "keeps a number of lines", "blank": "keeps blank lines"] }
        var comparesValues: Bool { true }

        func options(reading table: inout some SourceTableReading) -> Options {
            Options(most: table.int("most") ?? 5, keepBlank: table.string("blank") == "keep")
        }

        func problems(_ options: Options) -> [(key: String, problem: String)] {
            options.most > 10 ? [("most", "a lines source gives at most 10 lines")] : []
        }

        func read(_ body: [UInt8], options: Options) throws(SourceProblem) -> [String] {
            let text = String(decoding: body, as: UTF8.self)
            guard !text.isEmpty else { throw SourceProblem("the file is empty") }
            return text.split(separator: "\n", omittingEmptySubsequences: !options.keepBlank).map(String.init)
        }

        func values(_ lines: [String]?, options: Options, placeholder: String, now: Date, zone: ZoneRules) -> [String: JSONValue] {
            let lines = lines ?? []
            return ["first": lines.first.map(JSONValue.string) ?? .string(placeholder), "lines": .number(Double(lines.count))]
        }

        func warnings(_ lines: [String], options: Options) -> [String] {
            lines.count > options.most ? ["more than \(options.most) lines; the rest are left out"] : []
        }

        func comparable(_ options: Options) -> [String] { ["lines"] }
    }

    static let kinds = SourceKinds.all + [TextLines()]

    static func configured(_ source: String) throws(ConfigurationError) -> FlapdConfiguration {
        try ConfigurationParser.parse("[[source]]\nname = \"notes\"\nkind = \"lines\"\n" + source, file: "flapd.toml", sourceKinds: kinds)
    }

    @Test func itsOwnSettingIsReadAndAnotherKindsRefused() throws {
        let options = try #require(try Self.configured("url = \"/notes.txt\"\nmost = 2\n").sources.first?.options as? TextLines.Options)
        #expect(options == TextLines.Options(most: 2, keepBlank: false))
        func refusal(_ source: String) -> [String] {
            do { _ = try Self.configured(source); return [] } catch { return error.problems.map { "line \($0.line ?? 0), \($0.key): \($0.problem)" } }
        }
        #expect(refusal("url = \"/notes.txt\"\nmost = 20\n") == ["line 5, source[0].most: a lines source gives at most 10 lines"])
        #expect(
            refusal("url = \"/notes.txt\"\ncountdown = \"x\"\n") == ["line 5, source[0].countdown: only a calendar source counts down to an event"])
        #expect(refusal("url = \"/notes.txt\"\nmost = \"two\"\n") == ["line 5, source[0].most: must be a whole number"])
        // Its keys are its own: a calendar given one is told whose it is.
        let calendar = "[[source]]\nname = \"family\"\nkind = \"calendar\"\nurl = \"/f.ics\"\nmost = 3\n"
        do {
            _ = try ConfigurationParser.parse(calendar, file: "flapd.toml", sourceKinds: Self.kinds)
            Issue.record("a calendar took a lines source's key")
        } catch {
            #expect(error.problems.map(\.problem) == ["only a lines source keeps a number of lines"])
        }
    }

    @Test func aKindWrittenOnlyInTheTestsIsFetchedReadAndShown() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lines-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        teardown { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/notes.txt"
        try "BUY MILK\n\nCALL GRANDMA\nWATER PLANTS\n".write(toFile: file, atomically: true, encoding: .utf8)
        let definition = try #require(try Self.configured("url = \"\(file)\"\nmost = 2\n").sources.first)
        #expect(definition.every == .seconds(120), "the kind's own interval")

        let clock = ManualClock()
        let now = Date(timeIntervalSince1970: 1_795_672_800)
        let hub = SourceHub(definitions: [definition], zone: .utc, stateDirectory: directory, clock: clock, now: { now }, logger: LogLines().logger)
        #expect(hub.shelf.props(at: now)["notes"]?["first"] == "--")
        let running = Task { await hub.run() }
        teardown {
            running.cancel(); await running.value
        }
        #expect(try await eventually { hub.shelf.health(at: now).first?.state == .ok })
        let values = try #require(hub.shelf.props(at: now)["notes"])
        #expect(values["first"] == "BUY MILK" && values["lines"] == 3 && values["stale"] == false, "blank lines skipped: \(values)")
        let health = try #require(hub.shelf.health(at: now).first)
        #expect(health.kind == "lines" && health.warnings == ["more than 2 lines; the rest are left out"])
        #expect(hub.shelf.views(at: now).first?.every == "2m")
        // Triggers compare what the kind says may be compared, and name it among those that do.
        let trigger = TriggerSettings(name: "busy", source: "notes", condition: .above(value: "lines", 2), content: ["text": "BUSY DAY"])
        #expect(trigger.problems(sources: [definition]).isEmpty)
        let wrong = TriggerSettings(name: "busy", source: "notes", condition: .above(value: "words", 2), content: ["text": "BUSY DAY"])
        #expect(wrong.problems(sources: [definition]).map(\.problem) == ["notes has no value words (it has lines)"])
    }
}

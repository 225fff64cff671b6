import FlapCore
import FlapHardware
import FlapMessaging
import FlapPrimitives
import FlapSimulated
import Foundation
import Logging
import TestSupport
import Testing

@testable import FlapService

/// A kind of panel written here and nowhere else plugs in: named in flapd.toml, its own key read
/// and another's refused, made and run by the appliance like any other, with no `switch` over
/// drivers to edit.
@Suite(.cleansUp, .timeLimit(.minutes(3))) struct PanelKindTests {
    /// A panel that writes each board it comes to rest on as a line of a file.
    struct LinesPanelKind: PanelKind {
        var name: String { "lines" }
        var usage: String { " (each board a line of its file)" }

        struct Options: PanelOptions, Equatable {
            var file: String
        }

        func read(_ reader: inout TableReader, into panel: inout PanelSettings) {
            guard let file = reader.string("file") else {
                reader.fail("file", "a lines panel writes to a file: file = \"/tmp/board.txt\"")
                return
            }
            panel.options = Options(file: file)
        }

        func make(_ panel: PanelSettings, with context: PanelContext) async throws -> PanelDriver {
            let (settled, info, positions) = panel.settled(size: panel.size ?? .note, saved: context.saved)
            let lines = LinesPanel(
                SimulatedPanel(info: info, clock: ContinuousClock(), positions: positions),
                file: panel.options(Options.self)?.file ?? "/dev/null")
            return PanelDriver(panel: lines, configuration: settled, snapshots: nil, stopCompanion: {})
        }
    }

    /// Plays each plan on a simulated panel, then appends the board it rests on to the file.
    actor LinesPanel: Panel {
        let simulated: SimulatedPanel<ContinuousClock>
        let file: String
        nonisolated let info: PanelInfo

        init(_ simulated: SimulatedPanel<ContinuousClock>, file: String) {
            self.simulated = simulated
            self.file = file
            info = simulated.info
        }

        func play(_ plan: FlipPlan, cutoff: PlayCutoff) async throws {
            try await simulated.play(plan, cutoff: cutoff)
            let board = Board(size: info.size, positions: await simulated.positions(), drum: info.drum)
            let line = board.lines.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: " ") + "\n"
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(line.utf8))
            try handle.close()
        }

        func positions() async -> [Int] { await simulated.positions() }
        func shutDown() async { await simulated.shutDown() }
        func health() async -> PanelHealth { await simulated.health() }
        func notices() async -> AsyncStream<PanelNotice> { await simulated.notices() }
        func revisions() async -> AsyncStream<PlanRevision> { await simulated.revisions() }
    }

    static let kinds = PanelKinds.all + [LinesPanelKind()]

    @Test func aKindWrittenOnlyInTheTestIsConfiguredAndRun() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lines-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        teardown { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/board.txt"
        FileManager.default.createFile(atPath: file, contents: nil)
        var configuration = try ConfigurationParser.parse(
            """
            [api]
            port = 0
            https_port = 0
            key = "k"
            [local_api]
            port = 0
            [sound]
            enabled = false
            [[panel]]
            driver = "lines"
            model = "note"
            file = "\(file)"
            """, file: "flapd.toml", panelKinds: Self.kinds)
        configuration.stateDirectory = directory + "/state"
        #expect(configuration.panels[0].driver == "lines" && configuration.panels[0].options(LinesPanelKind.Options.self)?.file == file)

        let appliance = try await Appliance(configuration: configuration, drawInTerminal: false, logger: LogLines().logger)
        let running = Task { try await appliance.run() }
        teardown {
            running.cancel(); _ = await running.result
        }
        let now = Date()
        _ = try await appliance.inbox.accept(
            Message(
                id: "hello", sender: Sender(id: "test"), content: .text("HELLO LINES"),
                createdAt: now, expiresAt: now + 3600, source: MessageSource("test")), now: now)
        #expect(
            try await eventually(every: .milliseconds(50)) {
                (try? String(contentsOfFile: file, encoding: .utf8))?.contains("HELLO LINES") == true
            }, "the board never came to the file: \((try? String(contentsOfFile: file, encoding: .utf8)) ?? "")")
    }

    @Test func itsKeyIsItsOwnAndAnothersIsRefused() {
        let problems: [String]
        do {
            _ = try ConfigurationParser.parse(
                """
                [[panel]]
                driver = "lines"
                file = "/tmp/board.txt"
                chain = 2
                [[panel]]
                id = "flaps"
                driver = "chainlink"
                file = "/tmp/board.txt"
                [[panel]]
                id = "again"
                driver = "lines"
                """, file: "flapd.toml", panelKinds: Self.kinds)
            problems = []
        } catch {
            problems = error.problems.map(\.description)
        }
        #expect(
            problems == [
                "line 4, panel[0].chain: chain is a setting of a hub75 panel; this panel is lines",
                "line 8, panel[1].file: file is a setting of a lines panel; this panel is chainlink",
                "line 9, panel[2].file: a lines panel writes to a file: file = \"/tmp/board.txt\""
            ])
        #expect(PanelKinds.named("lines") == nil, "flapd itself does not know the test's kind")
    }
}

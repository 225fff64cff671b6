import FlapClocks
import FlapCore
import FlapHardware
import FoundationEssentials
import Synchronization
import TestSupport
import Testing

@testable import FlapSimulated

@Suite(.timeLimit(.minutes(3))) struct SimulatedPanelTests {
    let info = PanelInfo(id: "p", size: BoardSize(rows: 1, columns: 3), drum: .vestaboard, motion: .forwardOnly, driver: "simulated")

    func board(_ text: String) throws -> Board {
        var options = LayoutOptions(size: BoardSize(rows: 1, columns: 3))
        options.columns = 3
        return try Board(rows: TextLayout.encodeText(text, options: options).rows)
    }

    /// Plays `plan` in a task and waits until the panel has begun it.
    func start(_ plan: FlipPlan, on panel: SimulatedPanel<ManualClock>, cutoff: PlayCutoff = PlayCutoff()) async throws -> Task<Void, any Error> {
        let before = await panel.playsStarted
        let task = Task { try await panel.play(plan, cutoff: cutoff) }
        _ = try await eventually(every: .milliseconds(1)) { await panel.playsStarted != before }
        return task
    }

    @Test func everyLandingHappensAtItsPlannedInstantAndIsRecorded() async throws {
        let clock = ManualClock()
        let panel = SimulatedPanel(info: info, clock: clock, recordsHistory: true)
        let plan = try FlipPlanner().plan(from: Board(size: info.size), to: try board("CAB"))
        let origin = clock.now
        let task = try await start(plan, on: panel)
        await clock.advance(by: .milliseconds(239))
        // Each module has landed one flap (A) by 239 ms: at 120, 140 and 160 ms. The panel
        // applies what the clock woke on its own actor, so give it (real) time to.
        let aaa = try board("AAA")
        _ = try await eventually(every: .milliseconds(1)) { await panel.board == aaa }
        #expect(await panel.board == aaa)
        await clock.advance(by: plan.duration)
        try await task.value
        #expect(await panel.board == (try board("CAB")))
        #expect(await panel.board(at: origin.advanced(by: .milliseconds(240)))[0, 0] == CharacterCode(2)!)
        let landings = await panel.history.filter { $0.kind != .started }
        #expect(landings.count == plan.clackEvents.count)
        #expect(landings.map { origin.duration(to: $0.instant) } == plan.clackEvents.map(\.time))
    }

    @Test func aCutPlanLandsExactlyWhatWasDueByTheCutoff() async throws {
        let clock = ManualClock()
        let panel = SimulatedPanel(info: info, clock: clock)
        let plan = try FlipPlanner().plan(from: Board(size: info.size), to: try board("ZZZ"))
        let cutoff = PlayCutoff()
        let task = try await start(plan, on: panel, cutoff: cutoff)
        await clock.advance(by: .milliseconds(300))
        // The re-plan is made at 700 ms, though the panel has only seen 300 ms so far.
        cutoff.cut(at: .milliseconds(700))
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        let expected = plan.motion(at: .milliseconds(700)).map(\.position)
        #expect(await panel.positions() == expected)
    }

    @Test func shutDownEndsEverySnapshotStream() async throws {
        let panel = SimulatedPanel(info: info, clock: ManualClock())
        let snapshots = await panel.snapshots()
        await panel.shutDown()
        var count = 0
        for await _ in snapshots { count += 1 }
        #expect(count >= 1)
    }
}

@Suite(.timeLimit(.minutes(3))) struct TerminalRendererTests {
    final class Output: Sendable {
        let text = Mutex("")
        func append(_ s: String) { text.withLock { $0 += s } }
    }

    @Test func withoutATerminalOnlyRestingBoardsAreLoggedOnce() async throws {
        let output = Output()
        let renderer = TerminalRenderer(isTerminal: false) { output.append($0) }
        let size = BoardSize(rows: 1, columns: 2)
        let blank = PanelSnapshot(board: Board(size: size), moving: [false, false])
        var moving = blank
        moving.moving = [true, false]
        var done = PanelSnapshot(board: Board(size: size, fill: CharacterCode(1)!), moving: [false, false])
        let stream = AsyncStream<PanelSnapshot> { c in
            for s in [blank, moving, blank, done] { c.yield(s) }
            done.moving = [false, false]
            c.yield(done)
            c.finish()
        }
        await renderer.run(stream, clock: ContinuousClock())
        #expect(output.text.withLock { $0 } == "┌──┐\n│  │\n└──┘\n┌──┐\n│AA│\n└──┘\n")
    }

    @Test func onATerminalFramesAreDrawnInPlace() async throws {
        let output = Output()
        let renderer = TerminalRenderer(isTerminal: true) { output.append($0) }
        let size = BoardSize(rows: 2, columns: 1)
        let stream = AsyncStream<PanelSnapshot> { c in
            c.yield(PanelSnapshot(board: Board(size: size), moving: [false, false]))
            c.yield(PanelSnapshot(board: Board(size: size, fill: CharacterCode(2)!), moving: [false, false]))
            c.finish()
        }
        await renderer.run(stream, clock: ContinuousClock())
        let text = output.text.withLock { $0 }
        #expect(text.components(separatedBy: "\u{1B}[2A\r").count == 2)  // the second frame moves up over the first
        #expect(text.contains("B "))
    }
}

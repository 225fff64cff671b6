import FlapClocks
import FlapCore
import FlapHardware
import FlapSimulated
import TestSupport
import Testing

@testable import FlapDisplay

/// Waits (real time, bounded) until the panel has begun `count` plays: the plan's time zero is
/// the clock's reading then, so advancing the virtual clock before it would skip nothing.
func waitUntilPlaying<C: Clock>(_ panel: SimulatedPanel<C>, count: Int) async throws where C.Duration == Duration {
    if try await !eventually(every: .milliseconds(1), { await panel.playsStarted >= count }) {
        Issue.record("the panel never began play \(count)")
    }
}

/// The next motion event (the manual clock wakes a sleep until the current instant at once, so
/// nothing needs nudging meanwhile).
func nextEvent(_ events: inout AsyncStream<MotionEvent>.Iterator, clock: ManualClock) async -> MotionEvent? {
    await events.next()
}

/// The motion loop on a virtual clock, driving a simulated panel.
@Suite(.timeLimit(.minutes(3))) struct MotionLoopTests {
    let info = PanelInfo(id: "main", size: .flagship, drum: .vestaboard, motion: .forwardOnly, driver: "simulated")

    func board(_ text: String) throws -> Board { try Board(rows: TextLayout.encodeText(text).rows) }

    @Test func aTargetIsPlayedOnTheClockAndReportedWhenTheMotionEnds() async throws {
        let clock = ManualClock()
        let panel = SimulatedPanel(info: info, clock: clock, recordsHistory: true)
        let loop = MotionLoop(panel: panel, planner: try FlipPlanner(), clock: clock)
        var events = loop.motionEvents.makeAsyncIterator()
        let target = try board("HELLO")
        try await loop.show(target, token: "m1")
        guard case .started(let plan, "m1")? = await events.next() else { Issue.record("no start"); return }
        try await waitUntilPlaying(panel, count: 1)
        await clock.advance(by: plan.duration - .milliseconds(1))
        #expect(await panel.board != target)
        #expect(await loop.isMoving)
        await clock.advance(by: .milliseconds(1))
        guard case .rested(let shown, "m1", let flaps)? = await nextEvent(&events, clock: clock) else { Issue.record("no rest"); return }
        #expect(shown == target && flaps == plan.clackEvents.count)
        #expect(await panel.board == target)
        // The recorded history answers for any instant: H (8 flaps) had landed 5 flaps at 600 ms.
        let start = clock.now.advanced(by: .zero - plan.duration)
        #expect(await panel.board(at: start.advanced(by: .milliseconds(600)))[0, 0] == CharacterCode(5)!)
    }

    @Test func aNewTargetMidMotionIsPlannedFromWhereTheModulesAre() async throws {
        let clock = ManualClock()
        let panel = SimulatedPanel(info: info, clock: clock, recordsHistory: true)
        let loop = MotionLoop(panel: panel, planner: try FlipPlanner(), clock: clock)
        var events = loop.motionEvents.makeAsyncIterator()
        try await loop.show(try board("ZZZZZZ"), token: "first")
        _ = await events.next()
        try await waitUntilPlaying(panel, count: 1)
        await clock.advance(by: .milliseconds(1000))
        try await loop.show(try board("GOODBYE"), token: "second")
        guard case .started(let second, "second")? = await events.next() else { Issue.record("no re-plan"); return }
        // The cut plan landed exactly what was due by the re-plan, no more, no less.
        #expect(second.board(at: .zero) == (await panel.board))
        try await waitUntilPlaying(panel, count: 2)
        await clock.advance(by: second.duration)
        guard case .rested(let shown, "second", _)? = await nextEvent(&events, clock: clock) else { Issue.record("no rest"); return }
        #expect(shown == (try board("GOODBYE")))
        // The first plan never completed, and no module ever moved backwards.
        var last = Array(repeating: 0, count: 132)
        for event in await panel.history {
            if case .landed(let p) = event.kind {
                #expect(p == (last[event.module] + 1) % 66)
                last[event.module] = p
            }
        }
    }

    @Test func stoppingLeavesThePanelAtRest() async throws {
        let clock = ManualClock()
        let panel = SimulatedPanel(info: info, clock: clock)
        let loop = MotionLoop(panel: panel, planner: try FlipPlanner(), clock: clock)
        try await loop.show(try board("ABC"), token: nil)
        try await waitUntilPlaying(panel, count: 1)
        await clock.advance(by: .milliseconds(200))
        await loop.stop()
        #expect(await loop.isMoving == false)
        await clock.advance(by: .seconds(10))
        #expect(await panel.playsCompleted == 0)
    }
}

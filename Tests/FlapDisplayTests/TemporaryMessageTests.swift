import FlapClocks
import FlapCore
import FlapMessaging
import FlapSimulated
import FlapTime
import Foundation
import TestSupport
import Testing

@testable import FlapDisplay

/// Temporary messages on a virtual clock: one covers the board for its duration and gives it
/// back; persistent messages that arrive meanwhile wait; a newer one replaces the older; a
/// restart mid-way ends it on time; quiet hours hold it unless it bypasses them.
@Suite(.timeLimit(.minutes(3))) struct TemporaryMessageTests {
    typealias Rig = DisplayCoordinatorTests.Rig

    /// `a` (persistent, from alice) shown and displayed.
    static func showingA(_ rig: Rig) async throws {
        try await rig.send("a", from: "alice", text: "WELCOME HOME")
        try await rig.until("target a") { await rig.coordinator.target == "a" }
        try await rig.finishMotion()
        try await rig.until("a displayed") { try await rig.status("a") == .displayed }
    }

    @Test func aTemporaryMessageCoversTheBoardThenGivesItBack() async throws {
        let rig = try Rig(policy: .latest)
        let run = Task { await rig.coordinator.run() }
        defer { run.cancel() }
        try await Self.showingA(rig)
        // From the same sender: its persistent message is not replaced, only covered.
        try await rig.send("door", from: "alice", text: "DOOR OPEN", duration: 60)
        try await rig.until("target door") { await rig.coordinator.target == "door" }
        try await rig.finishMotion()  // 20 s
        try await rig.until("door displayed") { try await rig.status("door") == .displayed }
        #expect(await rig.panel.board == (try rig.board("DOOR OPEN")))
        #expect(try await rig.inbox.slots().map(\.id).sorted() == ["a", "door"])
        await rig.clock.advance(by: .seconds(39))
        #expect(await rig.coordinator.target == "door")
        await rig.clock.advance(by: .seconds(1))
        try await rig.until("back to a") { await rig.coordinator.target == "a" }
        try await rig.finishMotion()
        try await rig.until("the board back") { await rig.panel.board == (try rig.board("WELCOME HOME")) }
        #expect(try await rig.inbox.slots().map(\.id) == ["a"])
    }

    @Test func aPersistentMessageThatArrivesMeanwhileWaitsForTheEnd() async throws {
        let rig = try Rig(policy: .latest)
        let run = Task { await rig.coordinator.run() }
        defer { run.cancel() }
        try await Self.showingA(rig)
        try await rig.send("door", from: "house", text: "DOOR OPEN", duration: 120)
        try await rig.until("target door") { await rig.coordinator.target == "door" }
        try await rig.finishMotion()
        try await rig.send("b", from: "bob", text: "BACK AT SIX")
        await rig.clock.advance(by: .seconds(30))
        #expect(await rig.coordinator.target == "door")
        #expect(try await rig.status("b") == .accepted)
        await rig.clock.advance(by: .seconds(70))  // 120 s since the door opened
        try await rig.until("b after the end") { await rig.coordinator.target == "b" }
        try await rig.finishMotion()
        try await rig.until("b displayed") { try await rig.status("b") == .displayed }
    }

    @Test func aNewerTemporaryMessageReplacesTheOlder() async throws {
        let rig = try Rig(policy: .latest)
        let run = Task { await rig.coordinator.run() }
        defer { run.cancel() }
        try await Self.showingA(rig)
        try await rig.send("door", from: "house", text: "DOOR OPEN", duration: 60)
        try await rig.until("target door") { await rig.coordinator.target == "door" }
        try await rig.finishMotion()  // 20 s
        try await rig.send("oven", from: "kitchen", text: "OVEN READY", duration: 120)
        try await rig.until("target oven") { await rig.coordinator.target == "oven" }
        #expect(try await rig.inbox.slots().map(\.id).sorted() == ["a", "oven"])
        try await rig.finishMotion()  // 40 s
        // The door's end passes with the oven still shown; the door does not come back after it.
        await rig.clock.advance(by: .seconds(60))
        #expect(await rig.coordinator.target == "oven")
        await rig.clock.advance(by: .seconds(40))  // 120 s since the oven's
        try await rig.until("back to a") { await rig.coordinator.target == "a" }
    }

    @Test func aRestartMidwayEndsItOnTime() async throws {
        let first = try Rig(policy: .latest)
        let run = Task { await first.coordinator.run() }
        try await Self.showingA(first)
        try await first.send("door", from: "house", text: "DOOR OPEN", duration: 300)
        try await first.until("target door") { await first.coordinator.target == "door" }
        try await first.finishMotion()
        try await first.until("door displayed") { try await first.status("door") == .displayed }
        run.cancel()
        await run.value

        // flapd comes back 100 s after the door opened, on the board the panel last rested on.
        let board = await first.panel.board
        let rig = try Rig(policy: .latest, showing: (board, "door"), directory: first.directory, t0: first.t0 + 120)
        let again = Task { await rig.coordinator.run() }
        defer { again.cancel() }
        await rig.clock.advance(by: .seconds(10))
        #expect(await rig.coordinator.target == "door")
        #expect(await rig.motion.plansStarted == 0)
        await rig.clock.advance(by: .seconds(189))
        #expect(await rig.coordinator.target == "door")
        await rig.clock.advance(by: .seconds(1))  // 300 s since it opened
        try await rig.until("back to a") { await rig.coordinator.target == "a" }
    }

    @Test func quietHoursHoldItUnlessItBypassesThem() async throws {
        let rig = try Rig(policy: .latest, quiet: QuietHoursBoardTests.quiet(.blank))
        let run = Task { await rig.coordinator.run() }
        defer { run.cancel() }
        try await Self.showingA(rig)
        await rig.clock.advance(by: .seconds(280))  // 08:05, quiet
        try await rig.until("blank") {
            let (until, target) = (await rig.coordinator.quietUntil, await rig.coordinator.target)
            return until != nil && target == nil
        }
        try await rig.finishMotion()
        try await rig.send("door", from: "house", text: "DOOR OPEN", duration: 60)
        await rig.clock.advance(by: .seconds(30))
        #expect(await rig.coordinator.target == nil)
        try await rig.send("smoke", from: "alarm", text: "SMOKE ALARM", bypassQuietHours: true, duration: 60)
        try await rig.until("the bypass shown") { await rig.coordinator.target == "smoke" }
        try await rig.finishMotion()
        let plans = await rig.motion.plansStarted
        await rig.clock.advance(by: .seconds(40))  // 60 s since the smoke alarm
        try await rig.until("blank again") { await rig.coordinator.target == nil }
        // The plan back to blank, not the smoke alarm's: on a busy machine the target changes
        // before the plan starts, and finishing the older plan left the board on SMOKE ALARM.
        try await rig.until("the plan back to blank") { await rig.motion.plansStarted > plans }
        try await rig.finishMotion()
        // The clock has passed the last landing; the panel's task lands the flaps when it next
        // runs, which on a busy machine may be after the clock has moved.
        try await rig.until("the board blank") { await rig.panel.board == Board(size: .flagship) }
    }

    @Test func aSenderPanelShowsOnlyItsSendersTemporaryMessage() async throws {
        let rig = try Rig(policy: .sender("alice"))
        let run = Task { await rig.coordinator.run() }
        defer { run.cancel() }
        try await Self.showingA(rig)
        try await rig.send("door", from: "house", text: "DOOR OPEN", duration: 60)
        await rig.clock.advance(by: .seconds(5))
        #expect(await rig.coordinator.target == "a")
        try await rig.send("call", from: "alice", text: "CALL ME", duration: 60)
        try await rig.until("alice's own") { await rig.coordinator.target == "call" }
    }
}

import FlapClocks
import FlapCore
import FlapMessaging
import FlapSimulated
import FlapTime
import Foundation
import TestSupport
import Testing

@testable import FlapDisplay

/// A panel's quiet hours on a virtual clock (UTC, starting 08:00): the board holds or blanks,
/// messages wait, it moves once when they end, and a bypass moves it anyway.
@Suite(.timeLimit(.minutes(3))) struct QuietHoursBoardTests {
    typealias Rig = DisplayCoordinatorTests.Rig

    static func quiet(_ action: BoardQuietHours.Action) -> BoardQuietHours {
        BoardQuietHours(hours: QuietHours("08:05-08:15")!, action: action)
    }

    @Test func theBoardHoldsThenMovesOnceToTheNewestWhenQuietHoursEnd() async throws {
        let rig = try Rig(policy: .latest, quiet: Self.quiet(.hold))
        let run = Task { await rig.coordinator.run() }
        defer { run.cancel() }
        try await rig.send("a", from: "alice", text: "EVENING")
        try await rig.until("target a") { await rig.coordinator.target == "a" }
        try await rig.finishMotion()
        try await rig.until("a displayed") { try await rig.status("a") == .displayed }
        // 08:05: quiet hours.
        await rig.clock.advance(by: .seconds(300))
        try await rig.until("quiet") { await rig.coordinator.quietUntil != nil }
        #expect(await rig.coordinator.quietUntil == rig.t0 + 900)
        let plansBefore = await rig.motion.plansStarted
        try await rig.send("b", from: "bob", text: "NIGHT ONE")
        try await rig.send("c", from: "carol", text: "NIGHT TWO", created: 1)
        await rig.clock.advance(by: .seconds(60))
        #expect(await rig.coordinator.target == "a")
        #expect(await rig.motion.plansStarted == plansBefore)
        #expect(try await rig.status("b") == .accepted)
        #expect(try await rig.status("c") == .accepted)
        // 08:15: the board moves once, to the newest.
        await rig.clock.advance(by: .seconds(540))
        try await rig.until("target c") { await rig.coordinator.target == "c" }
        #expect(await rig.coordinator.quietUntil == nil)
        try await rig.finishMotion()
        try await rig.until("c displayed") { try await rig.status("c") == .displayed }
        #expect(await rig.motion.plansStarted == plansBefore + 1)
        #expect(await rig.panel.board == (try rig.board("NIGHT TWO")))
    }

    @Test func aBlankingBoardGoesBlankOnceAndABypassMovesItAnyway() async throws {
        let rig = try Rig(policy: .latest, quiet: Self.quiet(.blank))
        let run = Task { await rig.coordinator.run() }
        defer { run.cancel() }
        try await rig.send("a", from: "alice", text: "EVENING")
        try await rig.finishMotion()
        try await rig.until("a displayed") { try await rig.status("a") == .displayed }
        await rig.clock.advance(by: .seconds(300))
        try await rig.until("blank") {
            let (until, target) = (await rig.coordinator.quietUntil, await rig.coordinator.target)
            return until != nil && target == nil
        }
        try await rig.finishMotion()
        try await rig.until("the board blank") { await rig.panel.board == Board(size: .flagship) }
        try await rig.send("b", from: "bob", text: "WAITS")
        await rig.clock.advance(by: .seconds(30))
        #expect(await rig.coordinator.target == nil)
        try await rig.send("fire", from: "alarm", text: "SMOKE ALARM", created: 1, bypassQuietHours: true)
        try await rig.until("the bypass shown") { await rig.coordinator.target == "fire" }
        try await rig.finishMotion()
        try await rig.until("fire displayed") { try await rig.status("fire") == .displayed }
        #expect(try await rig.status("b") == .accepted)
        // The alarm's slot cleared: the board goes blank again, not back to what waits.
        _ = try await rig.inbox.clearSlot("alarm", now: rig.time.now())
        try await rig.until("blank again") { await rig.coordinator.target == nil }
        try await rig.finishMotion()
        try await rig.until("the board blank again") { await rig.panel.board == Board(size: .flagship) }
        #expect(try await rig.status("b") == .accepted)
    }

    @Test func quietNowHoldsTheBoardUntilSwitchedOffAndABypassStillShows() async throws {
        let pause = BoardPause()
        let rig = try Rig(policy: .latest, pause: pause)
        let run = Task { await rig.coordinator.run() }
        defer { run.cancel() }
        try await rig.send("a", from: "alice", text: "EVENING")
        try await rig.finishMotion()
        try await rig.until("a displayed") { try await rig.status("a") == .displayed }
        pause.set(true)
        let plansBefore = await rig.motion.plansStarted
        try await rig.send("b", from: "bob", text: "WAITS")
        await rig.clock.advance(by: .seconds(60))
        #expect(await rig.coordinator.target == "a")
        #expect(try await rig.status("b") == .accepted)
        #expect(await rig.motion.plansStarted == plansBefore)
        try await rig.send("fire", from: "alarm", text: "SMOKE ALARM", created: 1, bypassQuietHours: true)
        try await rig.until("the bypass shown") { await rig.coordinator.target == "fire" }
        try await rig.finishMotion()
        _ = try await rig.inbox.clearSlot("alarm", now: rig.time.now())
        await rig.clock.advance(by: .seconds(30))
        pause.set(false)
        try await rig.until("b once switched off") { await rig.coordinator.target == "b" }
    }
}

import FlapClocks
import FlapCore
import FlapHardware
import FlapMessaging
import FlapSimulated
import FlapTime
import Foundation
import Logging
import TestSupport
import Testing

@testable import FlapDisplay

/// Inbox → policy → motion → receipts, on a virtual clock with a date that follows it.
@Suite(.timeLimit(.minutes(3))) struct DisplayCoordinatorTests {
    final class Rig: Sendable {
        let clock = ManualClock()
        let time: ServiceTime<ManualClock>
        let inbox: Inbox
        let panel: SimulatedPanel<ManualClock>
        let coordinator: DisplayCoordinator<ManualClock>
        let motion: MotionLoop<ManualClock>
        let t0: Date
        /// Where the inbox is, so a second rig can open it as flapd does after a restart.
        let directory: URL

        /// `directory`: an earlier rig's, to start again from its inbox; `t0`: the date the clock starts at.
        init(
            policy: PanelPolicy, showing: (Board, String?)? = nil, quiet: BoardQuietHours? = nil,
            directory: URL? = nil, t0: Date = Date(timeIntervalSince1970: 1_800_000_000), pause: BoardPause? = nil
        ) throws {
            let clock = self.clock
            let start = clock.now
            self.t0 = t0
            time = ServiceTime(clock: clock, now: { t0 + Double(start.duration(to: clock.now).components.seconds) })
            let dir = directory ?? FileManager.default.temporaryDirectory.appendingPathComponent("coord-\(UUID().uuidString)")
            self.directory = dir
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            inbox = try Inbox(path: dir.appendingPathComponent("inbox.sqlite").path)
            let info = PanelInfo(id: "main", size: .flagship, drum: .vestaboard, motion: .forwardOnly, driver: "simulated")
            let positions = showing.map { $0.0.codes.map { Drum.vestaboard.index(of: $0)! } }
            panel = SimulatedPanel(info: info, clock: clock, positions: positions)
            let motion = MotionLoop(panel: panel, planner: try FlipPlanner(), clock: clock)
            self.motion = motion
            coordinator = DisplayCoordinator(
                panelID: "main", inbox: inbox, motion: motion, policy: policy, size: .flagship,
                time: time, logger: Logger(label: "test"), showing: showing.map { (board: $0.0, messageId: $0.1) },
                quiet: quiet, zone: .utc, pause: pause)
        }

        func send(
            _ id: String, from sender: String, text: String, created: TimeInterval = 0, lifetime: TimeInterval = 3600,
            bypassQuietHours: Bool = false, duration: Int? = nil, source: MessageSource = MessageSource("test")
        ) async throws {
            var message = Message(
                id: id, sender: Sender(id: sender), content: .text(text), createdAt: time.now() + created,
                expiresAt: time.now() + created + (duration.map(TimeInterval.init) ?? lifetime), source: source)
            if bypassQuietHours { message.bypassQuietHours = true }
            message.duration = duration
            _ = try await inbox.accept(message, now: time.now())
        }

        func board(_ text: String) throws -> Board {
            var options = LayoutOptions()
            options.align = .center
            options.valign = .middle
            return try Board(rows: TextLayout.encodeText(text, options: options).rows)
        }

        /// Waits (real time, up to 5 s) for a condition that other threads make true.
        func until(_ what: String, _ condition: @Sendable () async throws -> Bool) async throws {
            if try await !eventually(every: .milliseconds(2), condition) { Issue.record("timed out waiting for \(what)") }
        }

        /// Lets the panel finish the plan it was given (every plan here is under 20 s): waits until
        /// the panel has begun it, so its time zero is read before the clock moves on.
        func finishMotion() async throws {
            try await until("the panel to begin the newest plan") {
                let started = await motion.plansStarted
                let playing = await panel.playsStarted
                return started > 0 && playing == started
            }
            await clock.advance(by: .seconds(20))
        }

        func status(_ id: String) async throws -> ReceiptStatus? { try await inbox.receipt(id: id)?.status }
    }

    @Test func theLatestMessageIsShownAndThenReceiptedDisplayed() async throws {
        let rig = try Rig(policy: .latest)
        let run = Task { await rig.coordinator.run() }
        defer { run.cancel() }
        try await rig.send("a", from: "alice", text: "HELLO")
        try await rig.until("target a") { await rig.coordinator.target == "a" }
        #expect(try await rig.status("a") == .accepted)
        try await rig.finishMotion()
        try await rig.until("a displayed") { try await rig.status("a") == .displayed }
        #expect(await rig.panel.board == (try rig.board("HELLO")))
        let state = try await rig.inbox.panelState("main")
        #expect(state?.messageId == "a")
    }

    @Test func whenTheLatestExpiresThePanelFallsBackToTheNextNewest() async throws {
        let rig = try Rig(policy: .latest)
        let run = Task { await rig.coordinator.run() }
        defer { run.cancel() }
        try await rig.send("a", from: "alice", text: "OLDER")
        try await rig.send("b", from: "bob", text: "NEWER", created: 1, lifetime: 60)
        try await rig.until("target b") { await rig.coordinator.target == "b" }
        try await rig.finishMotion()
        try await rig.until("b displayed") { try await rig.status("b") == .displayed }
        #expect(try await rig.status("a") == .accepted)
        await rig.clock.advance(by: .seconds(45))
        try await rig.until("fallback to a") { await rig.coordinator.target == "a" }
        try await rig.finishMotion()
        try await rig.until("a displayed") { try await rig.status("a") == .displayed }
        #expect(try await rig.inbox.receipt(id: "b")?.status == .displayed)
        #expect(await rig.panel.board == (try rig.board("OLDER")))
    }

    /// Every panel hears of each new message: one coordinator waking must not take the wake-up
    /// from another (with one shared stream, only the first of two panels ever moved).
    @Test func everyPanelOnOneInboxShowsTheNewMessage() async throws {
        let rig = try Rig(policy: .latest)
        let info = PanelInfo(id: "second", size: .flagship, drum: .vestaboard, motion: .forwardOnly, driver: "simulated")
        let motion = MotionLoop(panel: SimulatedPanel(info: info, clock: rig.clock), planner: try FlipPlanner(), clock: rig.clock)
        let second = DisplayCoordinator(
            panelID: "second", inbox: rig.inbox, motion: motion, policy: .latest, size: .flagship,
            time: rig.time, logger: Logger(label: "test"), zone: .utc)
        let runs = [Task { await rig.coordinator.run() }, Task { await second.run() }]
        defer { for run in runs { run.cancel() } }
        for id in ["a", "b"] {
            try await rig.send(id, from: "alice", text: "HELLO \(id.uppercased())", created: id == "a" ? 0 : 1)
            try await rig.until("both panels on \(id)") {
                let targets = (await rig.coordinator.target, await second.target)
                return targets == (id, id)
            }
        }
    }

    @Test func aSenderPanelShowsOnlyThatSenderAndClearsWhenItExpires() async throws {
        let rig = try Rig(policy: .sender("bob"))
        let run = Task { await rig.coordinator.run() }
        defer { run.cancel() }
        try await rig.send("a", from: "alice", text: "NOT ME")
        try await rig.send("b", from: "bob", text: "ME", lifetime: 30)
        try await rig.until("target b") { await rig.coordinator.target == "b" }
        try await rig.finishMotion()
        try await rig.until("b displayed") { try await rig.status("b") == .displayed }
        await rig.clock.advance(by: .seconds(15))
        try await rig.until("cleared") { await rig.coordinator.target == nil }
        try await rig.finishMotion()
        try await rig.until("blank") { await rig.panel.board == Board(size: .flagship) }
        #expect(try await rig.status("a") == .accepted)
    }

    @Test func rotationShowsEachSlotInTurn() async throws {
        let rig = try Rig(policy: .rotate(every: .seconds(30)))
        let run = Task { await rig.coordinator.run() }
        defer { run.cancel() }
        try await rig.send("a", from: "alice", text: "ONE")
        try await rig.send("b", from: "bob", text: "TWO", created: 1)
        try await rig.until("first a") { await rig.coordinator.target == "a" }
        try await rig.finishMotion()
        await rig.clock.advance(by: .seconds(15))
        try await rig.until("then b") { await rig.coordinator.target == "b" }
        try await rig.finishMotion()
        try await rig.until("b displayed") { try await rig.status("b") == .displayed }
        await rig.clock.advance(by: .seconds(15))
        try await rig.until("back to a") { await rig.coordinator.target == "a" }
        #expect(try await rig.status("a") == .displayed)
    }

    @Test func afterARestartTheBoardAlreadyShowingItsMessageDoesNotMove() async throws {
        let first = try Rig(policy: .latest)
        let target = try first.board("STILL HERE")
        let rig = try Rig(policy: .latest, showing: (target, "kept"))
        let message = Message(
            id: "kept", sender: Sender(id: "alice"), content: .text("STILL HERE"),
            createdAt: rig.time.now(), expiresAt: rig.time.now() + 3600, source: MessageSource("test"))
        _ = try await rig.inbox.accept(message, now: rig.time.now())
        let run = Task { await rig.coordinator.run() }
        defer { run.cancel() }
        // The coordinator has chosen (and waits for the message's expiry) before time moves.
        await rig.clock.sleepers()
        await rig.clock.advance(by: .seconds(20))
        #expect(await rig.motion.plansStarted == 0)
        #expect(await rig.panel.playsCompleted == 0)
        #expect(await rig.panel.board == target)
    }
}

import FlapClocks
import FlapCore
import FlapHardware
import FlapSimulated
import FlapTime
import Foundation
import Logging
import TestSupport
import Testing

@testable import FlapDisplay

/// Advances the virtual clock a step at a time, each time only once the player is asleep on
/// it, so the player never falls behind: the timing the test sees is the timing it computed.
func drive(_ clock: ManualClock, step: Duration = .milliseconds(5), until done: @Sendable () async -> Bool) async throws {
    for _ in 0..<200_000 {
        if await done() { return }
        await clock.settle { deadlines, _ in !deadlines.isEmpty }
        await clock.advance(by: step)
    }
    Issue.record("the player never finished")
}

@Suite(.timeLimit(.minutes(2))) struct ClackPlayerTests {
    func board(_ text: String) throws -> Board { try Board(rows: TextLayout.encodeText(text).rows) }

    func player(
        _ clock: ManualClock, output: SimulatedAudioOutput<ManualClock>, settings: SoundSettings = SoundSettings(),
        date: Date = Date(timeIntervalSince1970: 1_800_000_000)
    ) -> ClackPlayer<ManualClock> {
        ClackPlayer(clock: clock, sample: .impulse(), settings: settings, now: { date }, logger: Logger(label: "test")) { output }
    }

    /// Instants at which the output plays a non-silent frame.
    func onsets(_ output: SimulatedAudioOutput<ManualClock>) async -> [ManualClock.Instant] {
        var instants: [ManualClock.Instant] = []
        for (i, frame) in await output.frames.enumerated() where frame != 0 {
            if let heard = await output.heard(frame: i) { instants.append(heard) }
        }
        return instants
    }

    @Test func everyClackIsHeardAtItsLandingDespiteTheOutputLatency() async throws {
        let clock = ManualClock()
        let output = SimulatedAudioOutput(clock: clock, latency: .milliseconds(30))
        let player = player(clock, output: output)
        let plan = try FlipPlanner().plan(from: Board(size: .flagship), to: try board("HELLO {63}"))
        let start = clock.now
        await player.play(plan, at: start)
        try await drive(clock) { await output.closed }
        let heard = await onsets(output)
        let expected = Set(plan.clackEvents.map { start.advanced(by: $0.time) })
        #expect(heard.count == expected.count)
        for (instant, landing) in zip(heard, expected.sorted()) {
            let error = landing.duration(to: instant)
            #expect(error < .microseconds(100) && error > .microseconds(-100), "clack off by \(error)")
        }
        #expect(await output.underruns == 0)
        #expect(await player.state == .idle)
    }

    @Test func aReplanSplicesTheNewClacksInAndDropsTheOldPlansRest() async throws {
        let clock = ManualClock()
        let output = SimulatedAudioOutput(clock: clock, latency: .milliseconds(10))
        let player = player(clock, output: output)
        let planner = try FlipPlanner()
        let first = try planner.plan(from: Board(size: .flagship), to: try board("ZZZZ"))
        let start = clock.now
        await player.play(first, at: start)
        let cut = Duration.milliseconds(900)
        try await drive(clock) { start.duration(to: clock.now) >= cut }
        let second = try planner.plan(from: first.motion(at: cut), to: try board("BYE"))
        await player.play(second, at: start.advanced(by: cut))
        try await drive(clock) { await output.closed }
        let expected = Set(first.clackEvents.map(\.time).filter { $0 <= cut } + second.clackEvents.map { cut + $0.time })
            .map { start.advanced(by: $0) }.sorted()
        let heard = await onsets(output)
        #expect(heard.count == expected.count)
        for (instant, landing) in zip(heard, expected) {
            let error = landing.duration(to: instant)
            #expect(error < .microseconds(100) && error > .microseconds(-100), "clack off by \(error)")
        }
    }

    /// A plan that arrives while the stream waits for its last frames to be heard is heard too:
    /// it was spliced into a track the stream no longer read, and its clacks were lost.
    @Test func aPlanArrivingAsTheStreamDrainsIsHeard() async throws {
        let clock = ManualClock()
        let output = SimulatedAudioOutput(clock: clock, latency: .milliseconds(10))
        let player = player(clock, output: output)
        let planner = try FlipPlanner()
        let first = try planner.plan(from: Board(size: .flagship), to: try board("AB"))
        let start = clock.now
        await player.play(first, at: start)
        // Every frame written, the stream now sleeps until the last is heard (its deadline is
        // that instant; a sleep between writes wakes earlier, to keep the queue ahead).
        try await drive(clock) {
            let written = await output.frames.count
            guard written > 0, let last = await output.heard(frame: written - 1) else { return false }
            let drained = last.advanced(by: .nanoseconds(1_000_000_000 / 48_000))
            guard let deadline = clock.nextDeadline else { return false }
            let gap = drained.duration(to: deadline)
            return gap < .microseconds(1) && gap > .microseconds(-1)
        }
        #expect(await output.closed == false)
        let late = clock.now
        let second = try planner.plan(from: try board("AB"), to: try board("CD"))
        await player.play(second, at: late)
        try await drive(clock) { await output.closed }
        let heard = await onsets(output).filter { $0 >= late }
        let expected = second.clackEvents.map { late.advanced(by: $0.time) }.filter { start.duration(to: $0) >= .zero }
        #expect(heard.count == expected.count, "the late plan's \(expected.count) clacks, heard: \(heard.count)")
        for (instant, landing) in zip(heard, expected.sorted()) {
            let error = landing.duration(to: instant)
            #expect(error < .microseconds(100) && error > .microseconds(-100), "clack off by \(error)")
        }
    }

    @Test func quietHoursMuteAndAMissingDeviceLeaveTheBoardSilentAndSaySo() async throws {
        let plan = try FlipPlanner().plan(from: Board(size: .flagship), to: try board("A"))
        var settings = SoundSettings()
        settings.quietHours = QuietHours("22:00-07:00")
        var night = DateComponents(calendar: .current, year: 2026, month: 11, day: 22, hour: 23, minute: 30).date!
        let clock = ManualClock()
        let output = SimulatedAudioOutput(clock: clock)
        let quiet = player(clock, output: output, settings: settings, date: night)
        await quiet.play(plan, at: clock.now)
        #expect(await quiet.state == .quietHours(QuietHours("22:00-07:00")!))
        #expect(await output.writes.isEmpty)
        night = DateComponents(calendar: .current, year: 2026, month: 11, day: 22, hour: 12).date!
        #expect(QuietHours("22:00-07:00")!.contains(night, zone: .current()) == false)

        settings = SoundSettings()
        settings.mute = true
        let muted = player(clock, output: output, settings: settings)
        await muted.play(plan, at: clock.now)
        #expect(await muted.state == .muted)

        let broken = ClackPlayer(clock: clock, sample: .impulse(), settings: SoundSettings(), now: { Date() }, logger: Logger(label: "t")) {
            throw HardwareError(device: "hw:9", problem: "no such card")
        }
        await broken.play(plan, at: clock.now)
        _ = try await eventually(every: .milliseconds(1)) { await broken.state != .idle }
        #expect(await broken.state == .unavailable("hw:9: no such card"))
    }

    @Test func quietHoursWrapPastMidnight() {
        let hours = QuietHours("22:00-07:00")!
        let zurich = ZoneRules.named("Europe/Zurich")!
        // 2026-06-01 in summer time, two hours east of UTC.
        func at(_ h: Int, _ m: Int) -> Date {
            Date(timeIntervalSince1970: TimeInterval(CivilDate.days(year: 2026, month: 6, day: 1) * 86400 + Int64(h * 3600 + m * 60 - 7200)))
        }
        #expect(hours.contains(at(22, 0), zone: zurich))
        #expect(hours.contains(at(3, 15), zone: zurich))
        #expect(!hours.contains(at(7, 0), zone: zurich))
        #expect(!hours.contains(at(12, 0), zone: zurich))
        #expect(QuietHours("25:00-07:00") == nil && QuietHours("07:00-07:00") == nil)
        #expect(hours.description == "22:00-07:00")
    }
}

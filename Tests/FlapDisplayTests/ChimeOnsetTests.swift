import FlapClocks
import FlapCore
import FlapKiosk
import FlapLinux
import Foundation
import Logging
import TestSupport
import Testing
import Wematch

@testable import FlapDisplay

/// The chime of a new synced pair through the real ALSA code path (the `file` plugin over
/// `null`), mixed with the clacks of a plan, read back from the file.
@Suite(.timeLimit(.minutes(2))) struct ChimeOnsetTests {
    let rate = 48_000

    func player(_ clock: ManualClock, path: String, settings: SoundSettings = SoundSettings()) -> ClackPlayer<ManualClock> {
        let configuration = "pcm.chimes { type file slave { pcm { type null } } file \"\(path)\" format \"raw\" }"
        return ClackPlayer(
            clock: clock, sample: .impulse(), settings: settings, now: { Date(timeIntervalSince1970: 1_800_000_000) },
            logger: Logger(label: "test")
        ) {
            try ALSAAudioOutput(device: "chimes", configuration: configuration)
        }
    }

    func samples(_ path: String) throws -> [Int16] {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        return stride(from: 0, to: bytes.count, by: 2).map { Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8) }
    }

    @Test func theChimeIsHeardAtTheInstantThePairSyncs() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("chime-\(UUID().uuidString).raw").path
        let clock = ManualClock()
        let player = player(clock, path: path)
        let start = clock.now
        // A board moving: one clack at its landing.
        let plan = try FlipPlanner().plan(from: Board(size: .flagship), to: try Board(rows: TextLayout.encodeText("A").rows))
        let clack = plan.clackEvents[0].time
        await player.play(plan, at: start)

        // The room: a and b far apart, then b's samples bring it within 5 BPM of a at 0.4 s,
        // while the clack's stream still plays: the chime is mixed into it.
        var room = Room<ManualClock.Instant>(name: "lobby")
        let joined = Date(timeIntervalSince1970: 1_795_000_000)
        for (id, bpm) in [("a", 70.0), ("b", 100.0)] {
            room.join(id, MemberRecord(name: id, colour: Palette.colours[0], joinedAt: joined), now: start)
            room.receive(HeartSample(previous: bpm, current: bpm, seq: 1), from: id, now: start)
        }
        var bell = SyncBell()
        #expect(bell.newPairs(in: room.plot(now: start)) == 0)
        let sync = Duration.milliseconds(400)
        try await drive(clock) { start.duration(to: clock.now) >= sync }
        room.receive(HeartSample(previous: 100, current: 72, seq: 2), from: "b", now: clock.now)
        room.receive(HeartSample(previous: 72, current: 71, seq: 3), from: "b", now: clock.now)
        let now = clock.now
        #expect(bell.newPairs(in: room.plot(now: now)) == 1)
        await player.chime(Chime.sample(), at: now)
        try await drive(clock) { await player.streamsFinished == 1 }

        let heard = try samples(path)
        // The clack's impulse, alone, at its landing.
        let clackFrame = ClackTrack.frame(of: clack, rate: rate)
        guard let firstSound = heard.firstIndex(where: { $0 != 0 }) else { Issue.record("silence"); return }
        #expect(abs(firstSound - clackFrame) * 1_000_000 / rate <= 5_000, "the clack at frame \(firstSound), landing at \(clackFrame)")
        // The chime begins at the sync: silence before it (after the clack), sound from it. A
        // sync cannot be known ahead as a landing can: the chime starts, whole, with the first
        // frame not yet written, at most the player's write-ahead (20 ms and a 10 ms period) late.
        let syncFrame = ClackTrack.frame(of: start.duration(to: now), rate: rate)
        guard let chimeOnset = heard[(clackFrame + 10)...].firstIndex(where: { abs($0) > 30 }) else { Issue.record("no chime"); return }
        let late = (chimeOnset - syncFrame) * 1_000_000 / rate
        #expect(late >= 0 && late <= 31_000, "the chime at frame \(chimeOnset), the sync at \(syncFrame)")
        // Whole: its first strike's attack is there, not cut (it rises from near silence).
        #expect(heard[chimeOnset..<(chimeOnset + 24)].allSatisfy { abs($0) < 6_000 })
        // And it rings: a second later it is still sounding.
        #expect(heard[(syncFrame + rate / 2)..<(syncFrame + rate / 2 + 480)].contains { abs($0) > 100 })
        #expect(await player.streamsFinished == 1)
    }

    @Test func quietHoursSilenceTheChime() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("chime-quiet-\(UUID().uuidString).raw").path
        let clock = ManualClock()
        var settings = SoundSettings()
        settings.quietHours = QuietHours("00:00-23:59")
        let player = player(clock, path: path, settings: settings)
        await player.chime(Chime.sample(), at: clock.now)
        try await drive(clock) { await player.state != .playing }
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(await player.streamsFinished == 0)
    }
}

import FlapClocks
import FlapCore
import FlapHardware
import FlapLinux
import Foundation
import Logging
import Synchronization
import TestSupport
import Testing

@testable import FlapDisplay

/// Clacks played through the real ALSA code path (the `file` plugin over `null`, from a private
/// configuration), read back from the file: every onset within 5 ms of its flap's landing.
@Suite(.timeLimit(.minutes(2))) struct ClackOnsetTests {
    let rate = 48_000

    func board(_ text: String) throws -> Board { try Board(rows: TextLayout.encodeText(text).rows) }

    /// Plays `plans` (each with its start, from the first one's) and returns the file's samples.
    func play(_ plans: [(FlipPlan, Duration)]) async throws -> [Int16] {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("onsets-\(UUID().uuidString).raw").path
        let configuration = "pcm.clacks { type file slave { pcm { type null } } file \"\(path)\" format \"raw\" }"
        let clock = ManualClock()
        let opened = OpenFlag()
        let player = ClackPlayer(
            clock: clock, sample: .impulse(), settings: SoundSettings(), now: { Date() },
            logger: Logger(label: "test")
        ) {
            opened.set()
            return try ALSAAudioOutput(device: "clacks", configuration: configuration)
        }
        let start = clock.now
        for (plan, at) in plans {
            try await drive(clock) { start.duration(to: clock.now) >= at }
            await player.play(plan, at: start.advanced(by: at))
        }
        try await drive(clock) { await player.streamsFinished == 1 }
        #expect(opened.isSet)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        return stride(from: 0, to: bytes.count, by: 2).map { Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8) }
    }

    /// Checks that the non-silent samples are exactly the expected landings, each within 5 ms.
    func expectOnsets(_ samples: [Int16], at landings: [Duration]) {
        let found = samples.indices.filter { samples[$0] != 0 }
        let expected = Set(landings.map { ClackTrack.frame(of: $0, rate: rate) }).sorted()
        #expect(found.count == expected.count, "\(found.count) clacks heard, \(expected.count) planned")
        for (index, frame) in zip(found, expected) {
            let error = abs(index - frame) * 1_000_000 / rate
            #expect(error <= 5_000, "a clack \(error) µs from its landing")
        }
    }

    @Test func aSingleFlap() async throws {
        let plan = try FlipPlanner().plan(from: Board(size: .flagship), to: try board("A"))
        #expect(plan.clackEvents.count == 1)
        expectOnsets(try await play([(plan, .zero)]), at: plan.clackEvents.map(\.time))
    }

    @Test func aFullSixByTwentyTwoCascade() async throws {
        // Every module one flap past home, going round to blank: 65 flaps each, 8 580 clacks.
        let plan = try FlipPlanner().plan(from: Board(size: .flagship, fill: CharacterCode(1)!), to: Board(size: .flagship))
        #expect(plan.clackEvents.count == 8_580)
        expectOnsets(try await play([(plan, .zero)]), at: plan.clackEvents.map(\.time))
    }

    @Test func aReplanMidMotion() async throws {
        let planner = try FlipPlanner()
        let first = try planner.plan(from: Board(size: .flagship), to: try board("ZZZZZ ZZZZZ"))
        let cut = Duration.milliseconds(1_234)
        let second = try planner.plan(from: first.motion(at: cut), to: try board("AB"))
        let samples = try await play([(first, .zero), (second, cut)])
        expectOnsets(samples, at: first.clackEvents.map(\.time).filter { $0 <= cut } + second.clackEvents.map { cut + $0.time })
    }
}

/// Set once, from any thread.
final class OpenFlag: Sendable {
    private let value = Mutex(false)
    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
}

import FlapClocks
import Testing

/// The tests' manual clock: a sleeper cancelled at any moment wakes with CancellationError rather
/// than sleeping for ever (cancellation is checked again under the clock's lock; the moment
/// between the first check and the lock cannot be forced from outside, so this is a stress test).
@Suite(.timeLimit(.minutes(3))) struct ManualClockTests {
    @Test func aSleeperCancelledAtAnyMomentWakes() async throws {
        let clock = ManualClock()
        for _ in 0..<500 {
            let sleeper = Task { try await clock.sleep(for: .seconds(60)) }
            sleeper.cancel()
            await #expect(throws: CancellationError.self) { try await sleeper.value }
        }
    }

    @Test func aJumpWakesWhoIsDueAndNoOneElse() async throws {
        let clock = ManualClock()
        let soon = Task { try await clock.sleep(for: .seconds(1)) }
        let later = Task { try await clock.sleep(for: .seconds(10)) }
        await clock.sleepers(atLeast: 2)
        clock.jump(by: .seconds(2))
        try await soon.value
        later.cancel()
        await #expect(throws: CancellationError.self) { try await later.value }
    }
}

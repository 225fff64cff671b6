import FlapClocks
import TestSupport
import Testing

@Suite(.cleansUp) struct VirtualTimeTests {
    /// A clock the test moves while it waits: a sleep of ten seconds ends within one `eventually`,
    /// which moves the clock a tenth of a second each time it asks.
    @Test func waitingMovesTheVirtualClocksOn() async throws {
        let clock = ManualClock()
        moveWhileWaiting { await clock.advance(by: $0) }
        let slept = Task { try await clock.sleep(for: .seconds(10)) }
        await clock.sleepers(atLeast: 1)
        try #require(try await eventually { !clock.hasSleepers })
        try await slept.value
        #expect(clock.now.offset >= .seconds(10))
    }
}

import FlapClocks
import FlapTime
import Foundation
import Testing

@Suite struct ApplianceClockTests {
    @Test func itSleepsOnTheClockItWasMadeFromAndCountsFromWhenItWasMade() async throws {
        let manual = ManualClock()
        await manual.advance(by: .seconds(5))
        let clock = ApplianceClock(manual)
        #expect(clock.now.offset == .zero)
        let woke = Task { try await clock.sleep(until: clock.now.advanced(by: .seconds(2))) }
        await manual.sleepers(atLeast: 1)
        await manual.advance(by: .seconds(1))
        #expect(manual.hasSleepers)
        await manual.advance(by: .seconds(1))
        try await woke.value
        #expect(clock.now.offset == .seconds(2))
    }

    @Test func theWallClockMovesWithTheVirtualOne() async {
        let manual = ManualClock()
        let epoch = Date(timeIntervalSince1970: 1_800_000_000)
        let time = ApplianceTime.following(manual, from: epoch)
        #expect(time.now() == epoch)
        await manual.advance(by: .seconds(90))
        #expect(time.now() == epoch.addingTimeInterval(90))
        #expect(time.instant(at: epoch.addingTimeInterval(120)) == time.clock.now.advanced(by: .seconds(30)))
    }

    @Test func aCancelledSleepEndsAtOnce() async {
        let manual = ManualClock()
        let clock = ApplianceClock(manual)
        let sleeping = Task { try await clock.sleep(until: clock.now.advanced(by: .seconds(60))) }
        await manual.sleepers(atLeast: 1)
        sleeping.cancel()
        await #expect(throws: CancellationError.self) { try await sleeping.value }
    }
}

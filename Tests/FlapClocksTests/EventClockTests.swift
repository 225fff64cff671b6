import FlapClocks
import Testing

/// The event clock's promise: time stands still while any task on it works, and jumps to the next
/// deadline once all of them sleep, so what runs on it happens in the same order on any machine.
@Suite(.timeLimit(.minutes(3))) struct EventClockTests {
    @Test func sleepersWakeInDeadlineOrderAtTheirOwnInstants() async throws {
        let clock = EventClock.drivenByCaller()
        let start = clock.now
        let early = clock.task {
            try await clock.sleep(until: start.advanced(by: .seconds(1)))
            return clock.now.offset
        }
        let late = clock.task {
            try await clock.sleep(until: start.advanced(by: .seconds(3)))
            return clock.now.offset
        }
        try await clock.sleep(for: .seconds(2))
        #expect(clock.now.offset == .seconds(2))
        let woken = try await clock.standingAside { (try await early.value, try await late.value) }
        #expect(woken == (.seconds(1), .seconds(3)))
    }

    @Test func timeWaitsForATaskThatWorksOffTheClock() async throws {
        let clock = EventClock.drivenByCaller()
        let (reached, arrive) = AsyncStream<Void>.makeStream()
        let (gate, open) = AsyncStream<Void>.makeStream()
        let start = clock.now
        let busy = clock.task {
            try await clock.sleep(until: start.advanced(by: .seconds(1)))
            arrive.yield()
            // Woken by the clock and not standing aside: time waits for this task.
            for await _ in gate { break }
            return clock.now.offset
        }
        let watcher = clock.task {
            try await clock.sleep(until: start.advanced(by: .seconds(5)))
            return clock.now.offset
        }
        await clock.standingAside { for await _ in reached { break } }
        #expect(clock.now.offset == .seconds(1), "time moved past a task at work")
        open.yield()
        let woken = try await clock.standingAside { (try await busy.value, try await watcher.value) }
        #expect(woken == (.seconds(1), .seconds(5)))
    }

    /// A joined task's first steps happen at the instant it was made, even when the one who made
    /// it sleeps at once and the task is slow to start.
    @Test func aJoinedTaskHoldsTimeUntilItFirstSleeps() async throws {
        let clock = EventClock.drivenByCaller()
        let start = clock.now
        let seen = clock.joinedTask {
            let first = clock.now.offset
            try await clock.sleep(until: start.advanced(by: .seconds(2)))
            return [first, clock.now.offset]
        }
        try await clock.sleep(until: start.advanced(by: .seconds(5)))
        #expect(try await clock.standingAside { try await seen.value } == [.zero, .seconds(2)])
    }

    @Test func aCancelledSleeperWakesAndHoldsTimeNoLonger() async throws {
        let clock = EventClock.drivenByCaller()
        let start = clock.now
        let sleeper = clock.task { try await clock.sleep(until: start.advanced(by: .seconds(60))) }
        sleeper.cancel()
        let outcome = await clock.standingAside { await sleeper.result }
        #expect(throws: CancellationError.self) { try outcome.get() }
        try await clock.sleep(for: .seconds(1))
        #expect(clock.now.offset == .seconds(1), "the cancelled sleep moved time")
    }

    @Test func aTimeoutThatSleepsThenLeavesLetsTimeMoveOn() async throws {
        let clock = EventClock.drivenByCaller()
        let (never, _) = AsyncStream<Int>.makeStream()
        let first = try await clock.standingAside {
            try await withThrowingTaskGroup(of: Int?.self) { group in
                group.addTask { await never.first { _ in true } }
                group.addTask {
                    try await clock.sleepThenLeave(for: .seconds(10))
                    return nil
                }
                defer { group.cancelAll() }
                return try await group.next() ?? nil
            }
        }
        #expect(first == nil)
        #expect(clock.now.offset == .seconds(10))
        try await clock.sleep(for: .seconds(1))
        #expect(clock.now.offset == .seconds(11))
    }
}

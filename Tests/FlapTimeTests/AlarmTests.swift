import Synchronization
import Testing

@testable import FlapTime

/// The alarm's one sleeper, when an old one rings late: a sleep that had already ended when a
/// nearer deadline cancelled it reported in afterwards, and cleared the handle of the sleeper
/// that replaced it (which then could be neither cancelled nor awaited at stop).
@Suite(.timeLimit(.minutes(5))) struct AlarmTests {
    @Test func aSleeperThatRingsAfterItWasReplacedLeavesItsSuccessorArmed() async throws {
        let clock = GateClock()
        let alarm = Alarm(clock: clock)
        var wakeups = alarm.wakeups.makeAsyncIterator()
        let (far, near) = (clock.now.advanced(by: .seconds(10)), clock.now.advanced(by: .seconds(5)))
        await alarm.arm(far)
        await clock.sleeping(1)
        await alarm.arm(near)
        await clock.sleeping(2)
        // The far sleep ends as if it had ended just before the cancel reached it.
        clock.open(far)
        _ = await wakeups.next()
        #expect(await alarm.armedDeadline == near, "the near deadline is still armed")
        // A later deadline keeps the near one: no second sleeper beside it.
        await alarm.arm(clock.now.advanced(by: .seconds(7)))
        #expect(clock.waiting == 1)
        clock.openAll()
        await alarm.stop()
    }
}

/// A clock whose sleeps end only when the test opens their deadline, cancelled or not: a
/// controlled peer for the instant between a sleep ending and its task being told to stop.
final class GateClock: Clock, Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
    }
    private let sleepers = Mutex<[(deadline: Instant, wake: CheckedContinuation<Void, Never>)]>([])

    var now: Instant { Instant(offset: .zero) }
    var minimumResolution: Duration { .zero }
    var waiting: Int { sleepers.withLock { $0.count } }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        await withCheckedContinuation { wake in sleepers.withLock { $0.append((deadline, wake)) } }
    }

    func open(_ deadline: Instant) {
        let woken = sleepers.withLock { list in
            let due = list.filter { $0.deadline == deadline }
            list.removeAll { $0.deadline == deadline }
            return due
        }
        for sleeper in woken { sleeper.wake.resume() }
    }

    func openAll() {
        for sleeper in sleepers.withLock({ list in
            defer { list = [] }; return list
        }) { sleeper.wake.resume() }
    }

    /// Returns once `count` sleeps are waiting.
    func sleeping(_ count: Int) async {
        while waiting < count { await Task.yield() }
    }
}

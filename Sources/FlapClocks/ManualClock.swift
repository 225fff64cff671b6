import Synchronization

/// A clock that moves only when a test tells it to, and wakes its sleepers at once when it does,
/// so hours of schedules, plans and rooms run in milliseconds and the same way on any machine.
///
/// It does no background-priority yielding: swift-clocks' TestClock yields to detached background
/// tasks, which a loaded two-core machine may never schedule, and the suite then hangs.
public final class ManualClock: Clock, Sendable {
    /// An instant of the clock's time.
    public struct Instant: InstantProtocol, Sendable {
        /// The time since the clock was made.
        public var offset: Duration
        /// The instant `duration` later.
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        /// The time from this instant to `other`.
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        /// Whether `a` comes before `b`.
        public static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
    }

    private struct Sleeper {
        var id: Int
        var deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var nextID = 0
        var sleepers: [Sleeper] = []
        /// Sleepers cancelled before they were added (their cancellation handler ran first).
        var cancelledEarly: Set<Int> = []
        /// Tasks waiting until this many sleep on the clock.
        var waiting: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
        /// Tasks waiting until someone sleeps until after an instant, by id.
        var waitingForLater: [Int: (after: Instant, continuation: CheckedContinuation<Void, Never>)] = [:]

        /// The waiters whose count of sleepers is reached, or who wait for a sleeper until after
        /// an instant there now is one for, taken out.
        mutating func satisfied() -> [CheckedContinuation<Void, Never>] {
            var ready = waiting.filter { sleepers.count >= $0.count }.map(\.continuation)
            waiting.removeAll { sleepers.count >= $0.count }
            for (id, waiter) in waitingForLater where sleepers.contains(where: { $0.deadline > waiter.after }) {
                ready.append(waiter.continuation)
                waitingForLater[id] = nil
            }
            return ready
        }
    }

    private let state = Mutex(State())

    /// A clock at time zero, with no sleepers.
    public init() {}

    /// The clock's time now.
    public var now: Instant { state.withLock { $0.now } }
    /// Any instant can be reached: time jumps to it.
    public var minimumResolution: Duration { .zero }

    /// Waits until a test moves the clock to `deadline` or past it; thrown out of by cancellation.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let id = state.withLock { s in
            s.nextID += 1
            return s.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                // Cancellation is checked again under the lock, as Waiters does: a handler that ran
                // between checkCancellation and here found no sleeper to wake.
                enum Outcome { case sleeping, due, cancelled }
                let (outcome, satisfied) = state.withLock { s in
                    if s.cancelledEarly.remove(id) != nil || Task.isCancelled { return (Outcome.cancelled, [CheckedContinuation<Void, Never>]()) }
                    guard deadline > s.now else { return (.due, []) }
                    s.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return (.sleeping, s.satisfied())
                }
                switch outcome {
                case .due: continuation.resume()
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .sleeping: break
                }
                for waiter in satisfied { waiter.resume() }
            }
        } onCancel: {
            let cancelled = state.withLock { s in
                guard let index = s.sleepers.firstIndex(where: { $0.id == id }) else {
                    s.cancelledEarly.insert(id)
                    return Sleeper?.none
                }
                return s.sleepers.remove(at: index)
            }
            cancelled?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time on by `duration` at once, waking every sleeper due by then.
    public func jump(by duration: Duration) {
        let due = state.withLock { s in
            s.now = s.now.advanced(by: duration)
            let now = s.now
            let due = s.sleepers.filter { $0.deadline <= now }.sorted { $0.deadline < $1.deadline }
            s.sleepers.removeAll { $0.deadline <= now }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Moves time on by `duration` deadline by deadline, as swift-clocks' TestClock does: each
    /// sleeper wakes at its own instant, and what it does then (sleeping again, within the
    /// span too) runs before time moves on. Woken tasks get their turn through `Task.yield()`
    /// at the caller's priority.
    public func advance(by duration: Duration) async {
        let end = now.advanced(by: duration)
        while true {
            await yieldToOthers()
            let due: [Sleeper] = state.withLock { s in
                guard let next = s.sleepers.map(\.deadline).filter({ $0 <= end }).min() else { return [] }
                s.now = max(s.now, next)
                let woken = s.sleepers.filter { $0.deadline <= next }
                s.sleepers.removeAll { $0.deadline <= next }
                return woken
            }
            if due.isEmpty { break }
            for sleeper in due { sleeper.continuation.resume() }
        }
        state.withLock { $0.now = max($0.now, end) }
        await yieldToOthers()
    }

    /// Returns once at least `count` tasks sleep on the clock: then advancing it moves them.
    public func sleepers(atLeast count: Int = 1) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { s in
                guard s.sleepers.count < count else { return true }
                s.waiting.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Returns once someone sleeps on the clock until after `instant` (at once if someone does),
    /// or the calling task is cancelled: the event a test waits for before moving time on.
    public func sleeper(after instant: Instant) async {
        let id = state.withLock { s in
            s.nextID += 1
            return s.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { s in
                    if s.cancelledEarly.remove(id) != nil || Task.isCancelled || s.sleepers.contains(where: { $0.deadline > instant }) { return true }
                    s.waitingForLater[id] = (instant, continuation)
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { s in
                guard let waiter = s.waitingForLater.removeValue(forKey: id) else {
                    s.cancelledEarly.insert(id)
                    return CheckedContinuation<Void, Never>?.none
                }
                return waiter.continuation
            }
            waiter?.resume()
        }
    }

    /// Whether anyone sleeps on the clock now.
    public var hasSleepers: Bool { state.withLock { !$0.sleepers.isEmpty } }

    private func yieldToOthers() async {
        for _ in 0..<40 { await Task.yield() }
    }

    /// The earliest deadline anyone sleeps until.
    public var nextDeadline: Instant? { state.withLock { $0.sleepers.map(\.deadline).min() } }

    /// Waits (yielding at this task's priority) until `condition` holds of the sleepers'
    /// deadlines, or gives up after many yields.
    @discardableResult
    public func settle(until condition: @Sendable ([Instant], Instant) -> Bool) async -> Bool {
        for _ in 0..<200_000 {
            let (deadlines, now) = state.withLock { s in (s.sleepers.map(\.deadline), s.now) }
            if condition(deadlines, now) { return true }
            await Task.yield()
        }
        return false
    }
}

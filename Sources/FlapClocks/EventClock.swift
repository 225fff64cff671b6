import Synchronization

/// A discrete-event clock for simulated hardware: time stands still while any task that runs on
/// the clock is busy, and when every one of them waits on it, time moves straight to the earliest
/// deadline and wakes whoever sleeps until then. A task holds time back from when the clock wakes
/// it (or it ``join()``s, or ``task(_:)`` makes it, until it starts) until it sleeps again or leaves.
///
/// So a loaded machine makes a test slower, never different: a stall of the process stalls
/// simulated time with it (an accelerated clock turns a 1-s stall into 4 s of simulated time,
/// enough for a driver to give up on a controller that never went quiet).
///
/// A test drives the clock from its own task, made with ``drivenByCaller()``. A task on the clock
/// that waits for something else (a stream, another task's value) says so with
/// ``standingAside(_:)``, or time would wait for it for ever; tasks started with ``task(_:)``
/// leave the clock when they end, and a child task whose last act is a sleep (a timeout) sleeps
/// with ``sleepThenLeave(for:)``.
public final class EventClock: Clock, Sendable {
    /// An instant of simulated time.
    public struct Instant: InstantProtocol, Sendable {
        /// Simulated time since the clock was made.
        public var offset: Duration
        /// The instant `duration` later.
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        /// The simulated time from this instant to `other`.
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        /// Whether `a` comes before `b`.
        public static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
    }

    /// Who keeps time from moving: a task at work, or one started by ``task(_:)`` not yet running.
    private enum Runner: Hashable {
        case task(Int)
        case starting(Int)
    }

    private struct Sleeper {
        var id: Int
        var deadline: Instant
        var task: Int
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var nextID = 0
        var sleepers: [Sleeper] = []
        var running: Set<Runner> = []
        /// Sleepers cancelled before they were added (their cancellation handler ran first).
        var cancelledEarly: Set<Int> = []

        /// When nobody runs, time moves to the earliest deadline; the sleepers due then, taken
        /// out and counted as running (they are about to be resumed).
        mutating func moveOnIfIdle() -> [Sleeper] {
            guard running.isEmpty, let next = sleepers.map(\.deadline).min() else { return [] }
            now = max(now, next)
            let due = sleepers.filter { $0.deadline <= next }
            sleepers.removeAll { $0.deadline <= next }
            for sleeper in due { running.insert(.task(sleeper.task)) }
            return due
        }

        mutating func takeID() -> Int {
            nextID += 1
            return nextID
        }
    }

    private let state = Mutex(State())

    /// A clock at simulated time zero, with no one on it.
    public init() {}

    /// A clock at time zero that the calling task runs on: time stands still while that task
    /// works, and moves only while it sleeps on the clock or stands aside. How a test drives
    /// simulated hardware and the real driver above it.
    public static func drivenByCaller() -> EventClock {
        let clock = EventClock()
        clock.join()
        return clock
    }

    /// Simulated time now.
    public var now: Instant { state.withLock { $0.now } }
    /// Any instant can be reached: time jumps to it.
    public var minimumResolution: Duration { .zero }

    /// Waits until simulated time reaches `deadline`; meanwhile the calling task holds time back
    /// no longer. Thrown out of by cancellation (the task then leaves the clock).
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let me = Self.currentTask
        guard !Task.isCancelled else {
            leave(me)
            throw CancellationError()
        }
        let id = state.withLock { $0.takeID() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Outcome { case sleeping, due, cancelled }
                let (outcome, woken) = state.withLock { s -> (Outcome, [Sleeper]) in
                    if s.cancelledEarly.remove(id) != nil || Task.isCancelled {
                        s.running.remove(.task(me))
                        return (.cancelled, s.moveOnIfIdle())
                    }
                    guard deadline > s.now else {
                        s.running.insert(.task(me))
                        return (.due, [])
                    }
                    s.running.remove(.task(me))
                    s.sleepers.append(Sleeper(id: id, deadline: deadline, task: me, continuation: continuation))
                    return (.sleeping, s.moveOnIfIdle())
                }
                switch outcome {
                case .due: continuation.resume()
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .sleeping: break
                }
                for sleeper in woken { sleeper.continuation.resume() }
            }
        } onCancel: {
            // A cancelled task is on its way out: it no longer holds time back.
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

    /// The calling task runs on the clock from now: time waits for it to sleep or leave.
    func join() {
        let me = Self.currentTask
        state.withLock { _ = $0.running.insert(.task(me)) }
    }

    /// The calling task no longer holds time back (it may still sleep on the clock, and then
    /// runs on it again when woken).
    func leave() { leave(Self.currentTask) }

    /// Sleeps for `duration` of simulated time as the calling task's last act on the clock: woken,
    /// it holds time back no longer (a timeout racing another wait in a task group, say).
    public func sleepThenLeave(for duration: Duration) async throws {
        defer { leave() }
        try await sleep(until: now.advanced(by: duration))
    }

    /// Runs `body`, which waits for something other than this clock, with time free to move
    /// meanwhile; the calling task runs on the clock again afterwards.
    public func standingAside<T>(_ body: () async throws -> T) async rethrows -> T {
        leave()
        defer { join() }
        return try await body()
    }

    /// A task that starts at the instant it was made (time waits for it to start) and leaves the
    /// clock when `body` ends. Once started it holds time back only while woken by the clock, so
    /// a body may first wait for something else (a driver's loop awaiting its children); but then
    /// time may move before the body reads ``now``: a body that counts from its start takes the
    /// instant from where the task is made.
    public func task<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) -> Task<T, any Error> {
        let token = starting()
        return Task { [self] in
            let me = Self.currentTask
            let woken = state.withLock { s in
                s.running.remove(.starting(token))
                return s.moveOnIfIdle()
            }
            for sleeper in woken { sleeper.continuation.resume() }
            defer { leave(me) }
            return try await body()
        }
    }

    /// A task that runs on the clock from the instant it is made until it first sleeps or leaves,
    /// as a task the clock woke does: what its body does before it first sleeps happens at that
    /// instant, however long the task takes to start. (``task(_:)``'s body may first wait for
    /// something else; this one may not, or time waits for it.)
    public func joinedTask<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) -> Task<T, any Error> {
        let token = starting()
        return Task { [self] in
            let me = Self.currentTask
            state.withLock { s in
                s.running.remove(.starting(token))
                s.running.insert(.task(me))
            }
            defer { leave(me) }
            return try await body()
        }
    }

    /// A task about to start: time waits for it.
    private func starting() -> Int {
        state.withLock { s in
            let token = s.takeID()
            s.running.insert(.starting(token))
            return token
        }
    }

    private func leave(_ task: Int) {
        let woken = state.withLock { s in
            s.running.remove(.task(task))
            return s.moveOnIfIdle()
        }
        for sleeper in woken { sleeper.continuation.resume() }
    }

    private static var currentTask: Int { withUnsafeCurrentTask { $0?.hashValue } ?? 0 }
}

import FlapHardware
import FoundationEssentials
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A thread of its own that sleeps in poll(2) on one descriptor, for the events its waiters
/// want, and on a pipe that wakes it when a waiter comes or it is stopped; each waiter resumes
/// once its events (or a hang-up or error) arrive, or when its time is up. A blocking poll in
/// the shared pool starved every other task on two cores, and a non-blocking poll retried every
/// millisecond woke the CPU a thousand times a second for as long as a port was open.
///
/// It owns the descriptor from then on and closes it when stopped, after its last poll, so the
/// number is never reused under a poll still running.
final class DescriptorWaiter: Sendable {
    private struct Waiter {
        var id: Int
        var events: Int16
        var deadline: ContinuousClock.Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var waiters: [Waiter] = []
        var nextID = 0
        var stopped = false
    }

    private let state = Mutex(State())
    private let descriptor: Int32
    private let wake: (read: Int32, write: Int32)

    init(descriptor: Int32, name: String) throws {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            throw HardwareError(device: name, problem: "cannot make a pipe to wait on it", errno: .last)
        }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        self.descriptor = descriptor
        wake = (ends[0], ends[1])
        DetachedThread.start(name: "serial \(name)") { [self] in loop() }
    }

    /// Returns once the descriptor has one of `events`, hangs up or fails, or at `deadline`,
    /// whichever is first; at once when stopped.
    func wait(for events: Int16, until deadline: ContinuousClock.Instant) async throws {
        let id = state.withLock { s in
            s.nextID += 1
            return s.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let waiting = state.withLock { s in
                    guard !s.stopped, !Task.isCancelled else { return false }
                    s.waiters.append(Waiter(id: id, events: events, deadline: deadline, continuation: continuation))
                    return true
                }
                if waiting { poke() } else { continuation.resume() }
            }
        } onCancel: {
            let cancelled = state.withLock { s in s.waiters.firstIndex { $0.id == id }.map { s.waiters.remove(at: $0) } }
            cancelled?.continuation.resume(throwing: CancellationError())
        }
        try Task.checkCancellation()
    }

    /// Ends the thread; it answers every waiter and closes the descriptor.
    func stop() {
        state.withLock { $0.stopped = true }
        poke()
    }

    private func poke() {
        var one: UInt8 = 1
        _ = Glibc.write(wake.write, &one, 1)
    }

    private func loop() {
        while true {
            let (events, timeout, stopped) = state.withLock { s in
                (s.waiters.reduce(Int16(0)) { $0 | $1.events }, Self.milliseconds(until: s.waiters.map(\.deadline).min()), s.stopped)
            }
            if stopped { break }
            // With nobody waiting the descriptor is left out (a negative one is skipped): a
            // hung-up pseudo-terminal would otherwise wake the poll at once, for ever.
            var fds = [
                pollfd(fd: events == 0 ? -1 : descriptor, events: events, revents: 0),
                pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)
            ]
            _ = poll(&fds, 2, timeout)
            if fds[1].revents != 0 {
                var drained = [UInt8](repeating: 0, count: 64)
                while Glibc.read(wake.read, &drained, 64) > 0 {}
            }
            let ready = fds[0].revents
            let failed = ready & Int16(POLLHUP | POLLERR | POLLNVAL) != 0
            let now = ContinuousClock.now
            let due = state.withLock { s in
                let isDue = { (w: Waiter) in failed || w.events & ready != 0 || w.deadline <= now }
                defer { s.waiters.removeAll(where: isDue) }
                return s.waiters.filter(isDue)
            }
            for waiter in due { waiter.continuation.resume() }
        }
        let left = state.withLock { s in
            defer { s.waiters = [] }
            return s.waiters
        }
        for waiter in left { waiter.continuation.resume() }
        Glibc.close(descriptor)
        Glibc.close(wake.read)
        Glibc.close(wake.write)
    }

    /// poll's timeout: milliseconds until `deadline` (rounded up), or -1 for none.
    private static func milliseconds(until deadline: ContinuousClock.Instant?) -> Int32 {
        guard let deadline else { return -1 }
        let left = ContinuousClock.now.duration(to: deadline)
        guard left > .zero else { return 0 }
        let (seconds, attoseconds) = left.components
        return Int32(min(seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000, 60_000))
    }
}

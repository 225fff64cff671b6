import CLinuxDevices
import Dispatch
import FlapHardware
import FoundationEssentials
import Synchronization

#if canImport(Glibc)
    import Glibc
    import SystemPackage
#endif

/// The thread that steps a directly driven board: SCHED_FIFO real-time priority when the system
/// grants it (CAP_SYS_NICE; systemd/flapd.service asks for it), else normal priority with a
/// warning, since steps then come late whenever the machine is busy. Engine time zero is
/// `origin` on the continuous clock, as for the panel that commands it.
public final class RealtimeSteppingThread: Sendable {
    private let engine: SteppingEngine
    private let origin: ContinuousClock.Instant
    private let priority: Int32
    private let running = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)
    private let outcome = Mutex<String?>(nil)

    /// A thread stepping `engine` from `origin`, at real-time `priority` when the system grants it.
    public init(engine: SteppingEngine, origin: ContinuousClock.Instant, priority: Int32 = 50) {
        self.engine = engine
        self.origin = origin
        self.priority = priority
    }

    /// Starts stepping; returns nil when real-time priority was granted, else why not (a
    /// sentence for the log).
    public func start() -> String? {
        let ready = DispatchSemaphore(value: 0)
        running.store(true, ordering: .releasing)
        DetachedThread.start(name: "flapd-stepping") { [self] in
            outcome.withLock { $0 = raisePriority() }
            // Wake-ups as exact as the kernel allows (the default slack is 50 µs).
            _ = vw_set_timer_slack(1)
            ready.signal()
            loop()
            finished.signal()
        }
        ready.wait()
        return outcome.withLock { $0 }
    }

    /// Stops stepping and waits for the thread to end; the coils are released.
    public func stop() {
        guard running.exchange(false, ordering: .acquiringAndReleasing) else { return }
        finished.wait()
        engine.release()
    }

    private func raisePriority() -> String? {
        var parameters = sched_param(sched_priority: priority)
        let result = pthread_setschedparam(pthread_self(), SCHED_FIFO, &parameters)
        guard result != 0 else { return nil }
        return
            "real-time priority refused (\(Errno(rawValue: result))); stepping at normal priority, so steps come late when the machine is busy (grant CAP_SYS_NICE: see systemd/flapd.service)"
    }

    private func loop() {
        while running.load(ordering: .acquiring) {
            let next = engine.step(at: origin.duration(to: .now))
            let wait = ContinuousClock.now.duration(to: origin.advanced(by: next))
            guard wait > .zero else { continue }
            let (seconds, attoseconds) = wait.components
            var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
            var remaining = timespec()
            while nanosleep(&request, &remaining) != 0, errno == EINTR { request = remaining }
        }
    }
}

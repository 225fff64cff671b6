import FlapHardware
import FlapHeartRate
import Synchronization

/// Keeps everything a heart-rate source emits, for tests and tools to look at while it runs.
public final class HeartRateRecorder<Instant: InstantProtocol & Sendable>: Sendable {
    private let events = Mutex<[HeartRateEvent<Instant>]>([])

    /// Nothing recorded yet.
    public init() {}

    /// What to hand to ``HeartRateSensor/run(_:)``.
    public var emit: @Sendable (HeartRateEvent<Instant>) -> Void { { event in self.events.withLock { $0.append(event) } } }

    /// Everything, in the order it was emitted.
    public var all: [HeartRateEvent<Instant>] { events.withLock { $0 } }

    /// The readings, in order.
    public var samples: [HeartRateSample<Instant>] {
        events.withLock { $0.compactMap { if case .sample(let s) = $0 { s } else { nil } } }
    }

    /// The state changes, in order.
    public var statuses: [HeartRateStatus] {
        events.withLock { $0.compactMap { if case .status(let s) = $0 { s } else { nil } } }
    }

    /// The notices, in order.
    public var notices: [String] {
        events.withLock { $0.compactMap { if case .notice(let n) = $0 { n } else { nil } } }
    }

    /// The last status reported for `strap` (nil: the source itself).
    public func state(of strap: StrapIdentity?) -> HeartRateSensorState? {
        statuses.last { $0.strap == strap }?.state
    }

    /// Waits on `clock` (up to `limit` of its time) until `condition` holds; whether it did. On an
    /// FlapClocks' `EventClock` the waiting task runs on the clock, so the source's time waits for it.
    public func until<C: Clock>(on clock: C, upTo limit: Duration, _ condition: (HeartRateRecorder) -> Bool) async throws -> Bool
    where C.Duration == Duration {
        let deadline = clock.now.advanced(by: limit)
        while clock.now < deadline {
            if condition(self) { return true }
            try await clock.sleep(for: .milliseconds(20), tolerance: nil)
        }
        return condition(self)
    }

    /// Waits (in real time, up to `seconds`) until `condition` holds; whether it did.
    public func until(_ seconds: Double = 20, _ condition: (HeartRateRecorder) -> Bool) async throws -> Bool {
        for _ in 0..<Int(seconds * 50) {
            if condition(self) { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return condition(self)
    }
}

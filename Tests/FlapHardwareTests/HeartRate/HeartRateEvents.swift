import FlapHardware
import Synchronization

/// Collects what a heart-rate source emits, for tests to wait on.
final class HeartRateEvents<Instant: InstantProtocol & Sendable>: Sendable {
    private let events = Mutex<[HeartRateEvent<Instant>]>([])

    var emit: @Sendable (HeartRateEvent<Instant>) -> Void { { event in self.events.withLock { $0.append(event) } } }

    var samples: [HeartRateSample<Instant>] {
        events.withLock { $0.compactMap { if case .sample(let s) = $0 { s } else { nil } } }
    }

    var statuses: [HeartRateStatus] {
        events.withLock { $0.compactMap { if case .status(let s) = $0 { s } else { nil } } }
    }

    var notices: [String] {
        events.withLock { $0.compactMap { if case .notice(let n) = $0 { n } else { nil } } }
    }

    /// Waits (real time, up to `seconds`) until `condition` holds.
    func until(_ seconds: Double = 20, _ condition: (HeartRateEvents) -> Bool) async throws -> Bool {
        for _ in 0..<Int(seconds * 50) {
            if condition(self) { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return condition(self)
    }
}

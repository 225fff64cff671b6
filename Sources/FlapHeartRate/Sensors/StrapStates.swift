import FlapHardware

/// Each strap's state as a source last reported it: turns what a driver hears into status
/// changes, each reported once, and finds the straps that fell silent.
public struct StrapStates<Instant: InstantProtocol & Sendable>: Sendable where Instant.Duration == Duration {
    private var states: [StrapIdentity: HeartRateSensorState] = [:]
    private var lastHeard: [StrapIdentity: Instant] = [:]

    /// A strap not heard for this long is lost.
    public static var silence: Duration { .seconds(5) }

    /// No strap heard yet.
    public init() {}

    /// `strap`'s state, if it was heard.
    public func state(of strap: StrapIdentity) -> HeartRateSensorState? { states[strap] }

    /// Records `sample`; the status change it brings (connected, or no contact), if any.
    public mutating func heard(_ sample: HeartRateSample<Instant>) -> HeartRateStatus? {
        lastHeard[sample.strap] = sample.instant
        return set(sample.strap, sample.contact == .notDetected ? .noContact : .connected)
    }

    /// Sets a strap's state; the change, or nil if it was already so.
    public mutating func set(_ strap: StrapIdentity, _ state: HeartRateSensorState) -> HeartRateStatus? {
        guard states[strap] != state else { return nil }
        states[strap] = state
        if case .lost = state { lastHeard[strap] = nil }
        return HeartRateStatus(strap: strap, state)
    }

    /// Marks lost every strap heard before but not for ``silence`` by `now`.
    public mutating func silent(now: Instant) -> [HeartRateStatus] {
        let quiet = lastHeard.filter { $0.value.duration(to: now) >= Self.silence }.keys.sorted()
        return quiet.compactMap {
            set($0, .lost(reason: "not heard for \(Self.silence.components.seconds) s", remedy: "is it worn, switched on and in range?"))
        }
    }

    /// Marks every strap lost for `reason` (the device they were heard through failed).
    public mutating func loseAll(reason: String, remedy: String?) -> [HeartRateStatus] {
        states.keys.sorted().compactMap { set($0, .lost(reason: reason, remedy: remedy)) }
    }
}

/// Waits between attempts to reach a device: 1 s, doubling to 30 s, with ±25 % jitter so that
/// kiosks restarted together do not retry in step.
public struct Backoff: Sendable {
    /// The first wait.
    public let first: Duration
    /// The longest wait.
    public let longest: Duration
    private var next: Duration
    private var random: UInt64

    /// Waits from `first` doubling to `longest`, jittered by a generator seeded with `seed`.
    public init(first: Duration = .seconds(1), longest: Duration = .seconds(30), seed: UInt64 = 0x9E37_79B9_7F4A_7C15) {
        self.first = first
        self.longest = longest
        next = first
        random = seed | 1
    }

    /// The wait before the next attempt.
    public mutating func delay() -> Duration {
        let base = next
        next = min(next * 2, longest)
        // xorshift: a jitter needs no better randomness, and a seed keeps tests repeatable.
        random ^= random << 13
        random ^= random >> 7
        random ^= random << 17
        let factor = 0.75 + Double(random % 1000) / 2000
        return base * factor
    }

    /// After a success: start from the first delay again.
    public mutating func reset() { next = first }
}

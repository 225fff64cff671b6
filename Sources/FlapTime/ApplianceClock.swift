/// The clock the appliance runs on, chosen when it is made: the real monotonic clock in flapd, a
/// virtual one where a test moves time. Every part is given the same value, so their instants
/// compare; an instant is the time since that value was made.
public struct ApplianceClock: Clock {
    /// An instant of the appliance's time.
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

    private let elapsed: @Sendable () -> Duration
    private let sleeper: @Sendable (Duration, Duration?) async throws -> Void
    /// The underlying clock's resolution.
    public let minimumResolution: Duration

    /// `clock`'s time, counted from now.
    public init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let start = clock.now
        elapsed = { start.duration(to: clock.now) }
        sleeper = { offset, tolerance in try await clock.sleep(until: start.advanced(by: offset), tolerance: tolerance) }
        minimumResolution = clock.minimumResolution
    }

    /// The real monotonic clock.
    public static var continuous: ApplianceClock { ApplianceClock(ContinuousClock()) }

    /// The time since the clock was made.
    public var now: Instant { Instant(offset: elapsed()) }

    /// Sleeps on the underlying clock until `deadline`; thrown out of by cancellation.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try await sleeper(deadline.offset, tolerance)
    }
}

/// Time that runs `factor` times faster than real time: simulated hardware and the real driver
/// above it share one, so a test of a 9-second homing search takes about a second while bytes
/// still cross a real pseudo-terminal. Durations are in simulated time throughout.
public struct AcceleratedClock: Clock, Sendable {
    public struct Instant: InstantProtocol, Sendable {
        /// Simulated time since the clock's origin.
        public var offset: Duration
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
    }

    public let factor: Int
    private let origin: ContinuousClock.Instant

    public init(factor: Int) {
        precondition(factor >= 1, "a clock can only run faster")
        self.factor = factor
        origin = ContinuousClock.now
    }

    public var now: Instant { Instant(offset: origin.duration(to: ContinuousClock.now) * factor) }
    public var minimumResolution: Duration { .microseconds(1) }

    public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        let wait = now.duration(to: deadline)
        if wait > .zero { try await Task.sleep(for: wait / factor) } else { try Task.checkCancellation() }
    }
}

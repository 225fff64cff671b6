import FoundationEssentials

/// The two times the service needs: a `Clock` for sleeping and measuring (monotonic), and the
/// wall-clock date messages are stamped and expire by. Tests pass a virtual clock and a date
/// derived from it, so expiry and rotation run deterministically and fast.
public struct ServiceTime<C: Clock>: Sendable where C.Duration == Duration {
    /// The clock durations are measured on.
    public let clock: C
    /// The wall clock.
    public let now: @Sendable () -> Date

    /// Time from `clock` and `now`.
    public init(clock: C, now: @escaping @Sendable () -> Date) {
        self.clock = clock
        self.now = now
    }

    /// The clock's instant at which the wall clock will read `date`.
    public func instant(at date: Date) -> C.Instant {
        let seconds = max(0, date.timeIntervalSince(now()))
        return clock.now.advanced(by: .milliseconds(Int64((seconds * 1000).rounded(.up))))
    }
}

extension ServiceTime where C == ApplianceClock {
    /// The real clocks, as the appliance takes them.
    public static var real: ServiceTime<ApplianceClock> { ServiceTime(clock: .continuous, now: { Date() }) }

    /// Time that `clock` moves, the wall clock reading `epoch` when it was made: a virtual clock
    /// moves both, so a test that moves it an hour sees messages expire an hour later.
    public static func following<V: Clock>(_ clock: V, from epoch: Date) -> ServiceTime<ApplianceClock> where V.Duration == Duration {
        let erased = ApplianceClock(clock)
        return ServiceTime(clock: erased, now: { epoch.addingTimeInterval(erased.now.offset / .seconds(1)) })
    }
}

/// The appliance's time: its clock and its wall clock, real in flapd and virtual in tests.
public typealias ApplianceTime = ServiceTime<ApplianceClock>

/// How a stepper-driven split-flap module moves: a geared stepper (the 28BYJ-48 of
/// scottbez1/splitflap) that ramps its step period down from a slow start to a cruise speed and
/// back, as the Chainlink firmware does. Flap `f` shows from step ⌈f × steps / flaps⌉ of a turn.
///
/// The ramp is a linear rise in speed over ``rampTime``: the k-th period of the ramp is
/// 1 / v(t) with v going from 1/``slowestPeriod`` to 1/``fastestPeriod``, t being the sum of
/// the periods before it. With the defaults that is 72 periods from 10 000 µs to 1 606 µs.
public struct StepperProfile: Sendable, Equatable {
    /// Steps in one turn of the drum (2048 for a 28BYJ-48 in full steps).
    public var stepsPerTurn: Int
    /// Flaps on the drum.
    public var flaps: Int
    /// Step periods, index = acceleration step: `ramp[0]` is the idle tick, `ramp[k]` (k ≥ 1)
    /// the period after the k-th step of acceleration; `ramp.last` is the cruise period.
    public let ramp: [Duration]
    /// Where each flap shows, in steps from home, when the flaps are not evenly spaced over the
    /// turn (the RS-485 reel's `*` flap, which no board character asks for, is passed over);
    /// nil: flap `f` at ⌈f × steps / flaps⌉.
    public let flapSteps: [Int]?
    /// From the command until the first step lands a flap, for a motor that takes a step's time
    /// before its first (an SBB module's first blade falls a blade's time after its frame); zero:
    /// the first step is the command's instant.
    public let firstStepDelay: Duration

    /// The idle tick's period: the slowest a motor is stepped.
    public static let defaultSlowestPeriod = Duration.microseconds(10_000)
    /// The cruise period: the fastest a 28BYJ-48 keeps its steps.
    public static let defaultFastestPeriod = Duration.microseconds(1_600)
    /// From the slowest period to the fastest.
    public static let defaultRampTime = Duration.milliseconds(200)

    /// The 28BYJ-48 profile for a drum of `flaps` flaps.
    public init(
        flaps: Int, stepsPerTurn: Int = 2048, slowestPeriod: Duration = defaultSlowestPeriod,
        fastestPeriod: Duration = defaultFastestPeriod, rampTime: Duration = defaultRampTime
    ) {
        precondition(flaps > 0 && stepsPerTurn >= flaps, "a drum needs at least one step per flap")
        self.flaps = flaps
        self.stepsPerTurn = stepsPerTurn
        ramp = Self.ramp(slowest: slowestPeriod, fastest: fastestPeriod, over: rampTime)
        flapSteps = nil
        firstStepDelay = .zero
    }

    /// A motor stepped at one constant `period` from its first step to its last (no ramp), its
    /// flaps at `flapSteps` (ascending, the first at 0) of a turn of `stepsPerTurn` steps: the
    /// RS-485 modules' firmware, a half-step a millisecond. Its first step comes `firstStepDelay`
    /// after the command.
    public init(flapSteps: [Int], stepsPerTurn: Int, period: Duration, firstStepDelay: Duration = .zero) {
        precondition(
            flapSteps.first == 0 && zip(flapSteps, flapSteps.dropFirst()).allSatisfy { $0 < $1 } && (flapSteps.last ?? 0) < stepsPerTurn,
            "flaps show at rising steps within the turn, the first at home")
        flaps = flapSteps.count
        self.stepsPerTurn = stepsPerTurn
        self.flapSteps = flapSteps
        ramp = [period, period]
        self.firstStepDelay = firstStepDelay
    }

    static func ramp(slowest: Duration, fastest: Duration, over time: Duration) -> [Duration] {
        let slowestMicros = Double(slowest.microseconds), fastestMicros = Double(fastest.microseconds)
        let total = Double(time.microseconds)
        let (v0, v1) = (1e6 / slowestMicros, 1e6 / fastestMicros)
        var periods: [Duration] = [fastest]
        var t = 0.0
        while t < total {
            let velocity = min(v1, v0 + (v1 - v0) * t / total)
            let micros = (1e6 / velocity).rounded(.towardZero)
            periods.append(.microseconds(Int64(micros)))
            t += micros
        }
        return periods
    }

    /// The highest acceleration step: the ramp's length.
    public var maxAcceleration: Int { ramp.count - 1 }
    /// The cruise period.
    public var cruisePeriod: Duration { ramp[maxAcceleration] }

    /// The step of a turn at which flap `flap` shows (rounded up, as the firmware does).
    public func step(ofFlap flap: Int) -> Int {
        if let flapSteps { return flapSteps[flap] }
        let exact = flap * stepsPerTurn
        return exact / flaps + (exact % flaps == 0 ? 0 : 1)
    }

    /// The flap showing at `step` of a turn.
    public func flap(atStep step: Int) -> Int {
        guard let flapSteps else { return (step % stepsPerTurn) * flaps / stepsPerTurn }
        let within = step % stepsPerTurn
        return (flapSteps.lastIndex { $0 <= within }) ?? 0
    }

    /// Steps from flap `from` (at rest) forward to flap `to`; a full turn when they are equal.
    public func steps(from: Int, to: Int) -> Int {
        let delta = (step(ofFlap: to) - step(ofFlap: from) + stepsPerTurn) % stepsPerTurn
        return delta == 0 ? stepsPerTurn : delta
    }

    /// Steps from flap `from` to the flap `ahead` flaps further on (more than a turn if need be).
    public func steps(from: Int, ahead: Int) -> Int {
        let flap = from + ahead
        return step(ofFlap: flap % flaps) + (flap / flaps) * stepsPerTurn - step(ofFlap: from)
    }

    /// When each of `count` successive flaps lands, from the first step, for a module leaving
    /// flap `from` at rest (or at cruise speed when `cruising`).
    public func landings(from: Int, flaps count: Int, cruising: Bool = false) -> [Duration] {
        guard count > 0 else { return [] }
        var times: [Duration] = []
        times.reserveCapacity(count)
        var nextStep = steps(from: from, ahead: 1)
        walk(steps: steps(from: from, ahead: count), cruising: cruising) { taken, time in
            if taken == nextStep {
                times.append(cruising ? time : time + firstStepDelay)
                nextStep = steps(from: from, ahead: times.count + 1)
            }
        }
        return times
    }

    /// How long `steps` steps take from rest to rest (first step at zero, the last one's time).
    /// Computed, not walked, past the ramp: its cost does not grow with `steps`, which may come
    /// from a client (a module told to turn on).
    public func duration(steps: Int) -> Duration {
        // Beyond twice the ramp, the motor reaches cruise before it slows down, so each further
        // step adds one cruise period in the middle and the ends stay as they are.
        let walked = min(steps, 2 * maxAcceleration + 1)
        var last = Duration.zero
        walk(steps: walked, cruising: false) { _, time in last = time }
        return last + cruisePeriod * (steps - walked)
    }

    /// Visits each step's number (1…steps) and time, as the firmware's update loop makes them:
    /// the acceleration step rises by one per step towards min(remaining, max), falls by one
    /// when above it, and the step waits the period of the acceleration step reached.
    func walk(steps: Int, cruising: Bool, _ visit: (Int, Duration) -> Void) {
        var acceleration = cruising ? maxAcceleration : 0
        var remaining = steps
        var time = Duration.zero
        var taken = 0
        while remaining > 0 || acceleration > 0 {
            let wanted = min(remaining, maxAcceleration)
            if acceleration < wanted { acceleration += 1 } else if acceleration > wanted { acceleration -= 1 }
            guard acceleration > 0 else { break }
            taken += 1
            remaining = max(0, remaining - 1)
            visit(taken, time)
            time += ramp[acceleration]
        }
    }
}

extension Duration {
    var microseconds: Int64 { components.seconds * 1_000_000 + components.attoseconds / 1_000_000_000_000 }

    /// The duration in nanoseconds, rounded towards zero (plans are in whole nanoseconds).
    var wholeNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    /// `nanoseconds` without the generic conversion of `.nanoseconds(_:)`.
    init(wholeNanoseconds nanoseconds: Int64) {
        // Wrapping: an Int64 of nanoseconds times 10⁹ always fits 128 bits, and the checked
        // 128-bit multiply was an eighth of a plan's time.
        self.init(attoseconds: Int128(nanoseconds) &* 1_000_000_000)
    }
}

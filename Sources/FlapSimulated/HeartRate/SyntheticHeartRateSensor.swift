import FlapHardware
import FlapHeartRate
import FlapPrimitives

/// Heart-rate straps worn by simulated people with believable physiology, on any clock: a
/// resting rate of 55–85 BPM, bouts of effort that ramp up and recover, beat-to-beat variation
/// (breathing and noise), moments without skin contact and dropouts. Seeded: the same seed gives
/// the same people and the same readings. What `flapd --simulate` reads.
public struct SyntheticHeartRateSensor<C: Clock>: HeartRateSensor where C.Duration == Duration, C.Instant: Sendable {
    /// Its name (`simulated (3 straps)`).
    public let name: String
    /// Its straps.
    public let straps: [StrapIdentity]
    private let seed: UInt64
    private let clock: C
    private let dropouts: Bool

    /// `count` people, wearing straps `simulated:1`… (or the names given).
    public init(count: Int = 1, names: [String]? = nil, seed: UInt64 = 1, dropouts: Bool = true, clock: C) {
        let addresses = names ?? (1...max(1, count)).map { "\($0)" }
        name = "simulated (\(addresses.count) strap\(addresses.count == 1 ? "" : "s"))"
        straps = addresses.map { StrapIdentity(driver: "simulated", address: $0) }
        self.seed = seed
        self.clock = clock
        self.dropouts = dropouts
    }

    /// Emits each wearer's reading once a second until cancelled.
    public func run(_ emit: @escaping @Sendable (HeartRateEvent<C.Instant>) -> Void) async {
        emit(.status(HeartRateStatus(strap: nil, .searching)))
        var people = straps.enumerated().map { SimulatedPerson(strap: $0.element, seed: seed &+ UInt64($0.offset) &* 0x9E37_79B9_7F4A_7C15) }
        var states = StrapStates<C.Instant>()
        emit(.status(HeartRateStatus(strap: nil, .connected)))
        var due = clock.now
        while !Task.isCancelled {
            // One reading a second from each strap, as Bluetooth straps send them.
            due = due.advanced(by: .seconds(1))
            guard (try? await clock.sleep(until: due, tolerance: nil)) != nil else { return }
            for index in people.indices {
                guard let reading = people[index].second(dropouts: dropouts) else { continue }
                let sample = HeartRateSample(
                    strap: people[index].strap, bpm: reading.bpm, contact: reading.contact,
                    rrIntervals: reading.rrIntervals, battery: people[index].battery, instant: clock.now)
                if let status = states.heard(sample) { emit(.status(status)) }
                emit(.sample(sample))
            }
            for status in states.silent(now: clock.now) { emit(.status(status)) }
        }
    }
}

/// One simulated wearer: the state of their heart from second to second.
struct SimulatedPerson {
    let strap: StrapIdentity
    let resting: Double
    let battery: Int
    private var random: SeededRandom
    private var rate: Double
    private var target: Double
    /// Seconds left of the current bout of effort, or of rest before the next one.
    private var phaseLeft: Int
    private var exercising = false
    private var noContactLeft = 0
    private var silentLeft = 0
    private var elapsed = 0.0

    init(strap: StrapIdentity, seed: UInt64) {
        self.strap = strap
        random = SeededRandom(seed: seed)
        resting = 55 + random.unit() * 30
        battery = 40 + Int(random.unit() * 60)
        rate = resting
        target = resting
        phaseLeft = 30 + Int(random.unit() * 90)
    }

    struct Reading {
        var bpm: Int
        var contact: SensorContact
        var rrIntervals: [UInt16]
    }

    /// What the strap says this second; nil during a dropout.
    mutating func second(dropouts: Bool) -> Reading? {
        elapsed += 1
        phaseLeft -= 1
        if phaseLeft <= 0 {
            exercising.toggle()
            target = exercising ? resting + 30 + random.unit() * 60 : resting
            phaseLeft = exercising ? 60 + Int(random.unit() * 120) : 60 + Int(random.unit() * 180)
        }
        // Effort ramps up over about 30 s; recovery is slower (about 60 s).
        let pace = target > rate ? 1.0 / 30 : 1.0 / 60
        rate += (target - rate) * pace
        if dropouts {
            if silentLeft > 0 { silentLeft -= 1; return nil }
            if random.unit() < 0.001 { silentLeft = 6 + Int(random.unit() * 10); return nil }
            if noContactLeft == 0, random.unit() < 0.002 { noContactLeft = 3 + Int(random.unit() * 6) }
        }
        if noContactLeft > 0 {
            noContactLeft -= 1
            return Reading(bpm: 0, contact: .notDetected, rrIntervals: [])
        }
        // Beats in this second: breathing sways the rate (±4 % at 0.25 Hz, a triangle wave is
        // close enough), plus a little noise.
        var intervals: [UInt16] = []
        var covered = 0.0
        while covered < 1 {
            let phase = (0.25 * (elapsed + covered)).truncatingRemainder(dividingBy: 1)
            let breath: Double = 4 * abs(phase - 0.5) - 1
            let noise: Double = 0.02 * (random.unit() - 0.5)
            let sway: Double = 1 + 0.04 * breath + noise
            let interval: Double = 60 / (rate * sway)
            intervals.append(UInt16((interval * 1024).rounded()))
            covered += interval
        }
        let bpm = Int((60 * 1024 * Double(intervals.count) / Double(intervals.reduce(0) { $0 + Int($1) })).rounded())
        return Reading(bpm: bpm, contact: .detected, rrIntervals: intervals)
    }
}

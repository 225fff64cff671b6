import FlapHardware

/// The mechanical half of a split-flap module: a rotor that a stepper's coils turn one step per
/// new coil pattern, and a hall sensor that sees the home magnet over a few steps of the turn.
/// Faults are the ones real modules have: steps lost to a sticky drum, a sensor stuck on, a
/// sensor (or magnet) that never fires.
public struct SimulatedMechanism: Sendable, Equatable {
    /// What is wrong with the hall sensor, if anything.
    public enum SensorFault: Sendable, Equatable { case none, stuckOn, neverFires }

    /// Steps a turn.
    public let stepsPerTurn: Int
    /// Rotor position within a turn; the magnet passes the sensor at step 0.
    public private(set) var rotorStep: Int
    /// Steps over which the sensor sees the magnet.
    public var sensorWidth: Int
    /// Its sensor's fault.
    public var sensorFault = SensorFault.none
    /// Every n-th step is lost (the coils change, the rotor does not turn); nil for none.
    public var losesEveryNthStep: Int?
    /// Coil patterns applied that turned the rotor, and that did not.
    public private(set) var stepsTurned = 0
    /// Coil patterns applied that did not turn the rotor.
    public private(set) var stepsLost = 0
    /// The coils as last driven (0 = released).
    public private(set) var coils: UInt8 = 0

    /// A rotor of `stepsPerTurn` at `rotorStep`, its sensor `sensorWidth` steps wide.
    public init(stepsPerTurn: Int = 2048, rotorStep: Int = 0, sensorWidth: Int = 24) {
        self.stepsPerTurn = stepsPerTurn
        self.rotorStep = rotorStep % stepsPerTurn
        self.sensorWidth = sensorWidth
    }

    /// What the hall sensor reads now (true = magnet in front of it).
    public var sensor: Bool {
        switch sensorFault {
        case .stuckOn: true
        case .neverFires: false
        case .none: rotorStep < sensorWidth
        }
    }

    /// Drives the coils; a new energised pattern advances the rotor one step.
    public mutating func drive(_ pattern: UInt8) {
        defer { coils = pattern }
        guard pattern != 0, pattern != coils else { return }
        if let n = losesEveryNthStep, n > 0, (stepsTurned + stepsLost + 1) % n == 0 {
            stepsLost += 1
            return
        }
        stepsTurned += 1
        rotorStep = (rotorStep + 1) % stepsPerTurn
    }
}

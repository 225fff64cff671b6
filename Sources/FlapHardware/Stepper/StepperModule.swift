import FlapCore

/// One split-flap module's control logic, as the Chainlink firmware runs it for each motor: a
/// target flap, the step count within a turn, the acceleration ramp, and homing on the hall
/// sensor's rising edge with missed- and unexpected-home detection. It drives nothing itself:
/// each ``tick(sensor:)`` is handed the sensor and returns the coil pattern to apply and when to
/// tick next, so the same logic runs in the direct-drive stepping thread and in the simulated
/// controller.
public struct StepperModule: Sendable, Equatable {
    /// The firmware's module states.
    public enum State: Int, Sendable, Equatable {
        case normal = 0, lookForHome, sensorError, panic, disabled
    }

    /// Where the module expects its next home edge, as the firmware tracks it.
    enum HomeWindow: Sendable, Equatable { case ignore, unexpected, expected }

    /// The motor model.
    public let profile: StepperProfile
    /// Whether it is working, homing or in a fault.
    public private(set) var state: State = .lookForHome
    /// Steps within the turn, 0 = home (plus ``offsetSteps``).
    public private(set) var currentStep = 0
    /// Steps still to go.
    public private(set) var remainingSteps: Int
    /// Acceleration steps taken: an index into the profile's ramp.
    public private(set) var acceleration = 0
    /// The flap it is going to.
    public private(set) var targetFlap = 0
    /// Where flap 0 sits after the sensor edge: the module's calibration.
    public var offsetSteps = 0
    /// Home edges seen where none should be.
    public private(set) var unexpectedHomes = 0
    /// Home edges not seen where they should be.
    public private(set) var missedHomes = 0
    private var phase = 0
    private var lastSensor = false
    private var window = HomeWindow.ignore

    /// Coil patterns A+B, B+C, C+D, D+A (two-phase full steps), as bits 3…0.
    public static let coilPatterns: [UInt8] = [0b1100, 0b0110, 0b0011, 0b1001]

    /// A module that starts by looking for home.
    public init(profile: StepperProfile) {
        self.profile = profile
        remainingSteps = Self.homeSearchSteps(profile)
    }

    /// The drum index showing.
    public var currentFlap: Int {
        let step = (currentStep - offsetSteps + profile.stepsPerTurn) % profile.stepsPerTurn
        return profile.flap(atStep: step)
    }

    /// Turning, or about to.
    public var isMoving: Bool { acceleration > 0 || (remainingSteps > 0 && (state == .normal || state == .lookForHome)) }

    // Firmware margins, in steps: a quarter flap either side of home is on time; five flaps
    // after home before another edge is unexpected; a turn plus two flaps to find home.
    private var roughStepsPerFlap: Int { profile.stepsPerTurn / profile.flaps }
    private var homeMargin: Int { roughStepsPerFlap / 4 }
    private var unexpectedFrom: Int { roughStepsPerFlap * 5 }
    private var unexpectedUntil: Int { profile.stepsPerTurn - homeMargin }
    private static func homeSearchSteps(_ profile: StepperProfile) -> Int { (profile.flaps + 2) * (profile.stepsPerTurn / profile.flaps) }

    /// Turns to `flap` (forward; a full turn when it is already there). Ignored unless the module
    /// is normal or looking for home, as in the firmware.
    public mutating func go(to flap: Int) {
        guard state == .normal || state == .lookForHome else { return }
        targetFlap = flap
        aimAtTarget()
    }

    private mutating func aimAtTarget() {
        guard state == .normal else { return }
        let target = (profile.step(ofFlap: targetFlap) + offsetSteps) % profile.stepsPerTurn
        // A turning module cannot stop before its deceleration runs out.
        let earliestStop = currentStep + acceleration
        remainingSteps = target <= earliestStop ? profile.stepsPerTurn - currentStep + target : target - currentStep
    }

    /// Clears the fault counters and looks for home again (not from panic or disabled).
    public mutating func rehome() {
        unexpectedHomes = 0
        missedHomes = 0
        guard state != .panic && state != .disabled else { return }
        state = .lookForHome
        remainingSteps = Self.homeSearchSteps(profile)
    }

    /// Stops and de-energises the module for good.
    public mutating func disable() {
        state = .disabled
        acceleration = 0
        remainingSteps = 0
    }

    /// One update: `sensor` is the hall sensor now (true = magnet). Returns the coils to apply
    /// (0 = released) and the time until the next update.
    public mutating func tick(sensor: Bool) -> (coils: UInt8, next: Duration) {
        guard state != .panic && state != .disabled else { return (0, profile.ramp[0]) }
        let edge = sensor && !lastSensor
        lastSensor = sensor
        var wanted = 0
        switch state {
        case .normal:
            if checkHome(edge: edge) {
                rehomeAfterFault()
            } else {
                wanted = min(remainingSteps, profile.maxAcceleration)
            }
        case .lookForHome:
            if edge {
                state = .normal
                currentStep = 0
                window = .ignore
                aimAtTarget()
            } else if remainingSteps == 0 {
                state = .sensorError
            } else {
                wanted = profile.maxAcceleration / 8
            }
        default:
            break
        }
        if acceleration < wanted { acceleration += 1 } else if acceleration > wanted { acceleration -= 1 }
        let period = profile.ramp[acceleration]
        guard acceleration > 0 else { return (0, period) }
        currentStep = (currentStep + 1) % profile.stepsPerTurn
        phase = (phase + 1) % 4
        remainingSteps = max(0, remainingSteps - 1)
        return (Self.coilPatterns[phase], period)
    }

    /// Follows the home window through the turn; true when the sensor contradicts the count.
    private mutating func checkHome(edge: Bool) -> Bool {
        switch window {
        case .ignore:
            if currentStep == unexpectedFrom { window = .unexpected }
        case .unexpected:
            if edge {
                unexpectedHomes += 1
                return true
            }
            if currentStep == unexpectedUntil { window = .expected }
        case .expected:
            if edge {
                window = .ignore
            } else if currentStep == homeMargin {
                missedHomes += 1
                return true
            }
        }
        return false
    }

    private mutating func rehomeAfterFault() {
        state = .lookForHome
        remainingSteps = Self.homeSearchSteps(profile)
    }
}

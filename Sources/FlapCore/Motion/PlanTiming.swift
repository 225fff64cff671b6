/// How a panel's hardware times its plans, as one value the panel gives
/// (`Panel.planTiming()`): the planner takes it whole (``FlipPlanner/time(by:)``), so no
/// composition has to know which driver needs which of these.
public struct PlanTiming: Sendable, Equatable {
    /// The motor's model (a stepper's acceleration); nil: the planner's constant flap period.
    public var stepper: StepperProfile?
    /// Each module's own motion, row-major, where modules differ (an RS-485 module's stored flap
    /// positions); nil: ``stepper`` for every module.
    public var moduleSteppers: [StepperProfile]?
    /// The shortest time between two commands the hardware takes (a Chainlink link's).
    public var commandInterval: Duration?
    /// The time one module's command takes on a bus that carries one at a time (an RS-485 frame).
    public var frameInterval: Duration?
    /// Each module's own flaps, row-major, where modules differ (an RS-485 module with a reel of
    /// its own): not timing, but what the hardware tells the planner alongside it.
    public var moduleDrums: [Drum]?

    /// Timing with these; none given: the planner's flap period alone, as a screen or LEDs take it.
    public init(
        stepper: StepperProfile? = nil, moduleSteppers: [StepperProfile]? = nil, commandInterval: Duration? = nil,
        frameInterval: Duration? = nil, moduleDrums: [Drum]? = nil
    ) {
        self.moduleDrums = moduleDrums
        self.stepper = stepper
        self.moduleSteppers = moduleSteppers
        self.commandInterval = commandInterval
        self.frameInterval = frameInterval
    }
}

extension FlipPlanner {
    /// Plans from now on as `timing` says.
    public mutating func time(by timing: PlanTiming) {
        stepper = timing.stepper
        moduleSteppers = timing.moduleSteppers
        commandInterval = timing.commandInterval
        frameInterval = timing.frameInterval
        moduleDrums = timing.moduleDrums
    }
}

import FlapCore

/// What both stepper-driven panels (a Chainlink controller, or the Pi's own stepping) share when
/// they play a plan.
public enum StepperPlayback {
    /// The longest `play` waits past its estimate for modules still turning or homing (a module
    /// homing first takes up to a turn at an eighth of full speed, about 9 s).
    public static var waitLimit: Duration { .seconds(30) }

    /// The modules that move, grouped by their start time, in time order: one command each.
    public static func starts(of plan: FlipPlan) -> [(time: Duration, modules: [Int])] {
        var groups: [Duration: [Int]] = [:]
        for (i, module) in plan.modules.enumerated() where module.path.count > 1 { groups[module.start, default: []].append(i) }
        return groups.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }
}

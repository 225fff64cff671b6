import ArgumentParser
import FlapCore

/// The flip-planning options; their defaults are the same everywhere a plan is made.
struct PlanArguments: ParsableArguments {
    @Option(help: "Drum: vestaboard, chainlink52 or chainlink40.")
    var drum: String = Drum.vestaboard.name

    @Option(help: "A drum given as its flaps in order (space = blank, lowercase r o y g b p w k f = colours). Overrides --drum.")
    var drumString: String?

    @Option(help: "Transition: \(TransitionStrategy.allCases.map(\.rawValue).joined(separator: ", ")).")
    var strategy: TransitionStrategy = .cascade

    @Option(help: "Columns, rows, diagonals or modules started together (default 1).")
    var stepSize: Int?

    @Option(help: "Milliseconds between one group's start and the next.")
    var stepIntervalMs: Int?

    @Option(help: "Seed for the random order and the clack gains.")
    var seed: UInt64 = 0

    @Option(help: "Milliseconds per flap, 50 to 200.")
    var periodMs: Int = FlipPlanner.defaultFlapPeriodMs

    @Flag(help: "Plan for a virtual panel (LED, screen): each module takes the shorter way round.")
    var shortest = false

    func planner() throws -> FlipPlanner {
        let drum: Drum
        do {
            if let drumString {
                drum = try Drum(string: drumString)
            } else if let named = Drum.named(self.drum) {
                drum = named
            } else {
                throw InputError("--drum \(self.drum): give \(Drum.named.map(\.name).joined(separator: ", ")), or --drum-string")
            }
            let transition = try Transition(strategy: strategy, stepSize: stepSize, stepIntervalMs: stepIntervalMs, seed: seed)
            return try FlipPlanner(drum: drum, motion: shortest ? .shortestWay : .forwardOnly, flapPeriodMs: periodMs, transition: transition)
        } catch let error as DrumError {
            throw InputError(error.description)
        } catch let error as PlanError {
            throw InputError(error.description)
        }
    }

    /// The plan between two texts laid out with `layout`.
    func plan(from: String, to: String, layout: LayoutArguments) throws -> FlipPlan {
        let planner = try planner()
        let plan: FlipPlan
        do {
            plan = try planner.plan(from: try layout.board(from), to: try layout.board(to))
        } catch let error as PlanError {
            throw InputError(error.description)
        }
        for warning in plan.warnings { StandardStream.writeError("warning: \(warning)\n") }
        return plan
    }
}

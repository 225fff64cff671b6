import FlapPrimitives

/// Whether a panel's modules may turn backwards.
public enum PanelMotion: String, Sendable, CaseIterable {
    /// Split-flap hardware and its simulations: drums turn forward only.
    case forwardOnly = "forward-only"
    /// LED, screen and Vestaboard-API panels: whichever way is shorter (forward on a tie).
    case shortestWay = "shortest"
}

/// Plans every module's path and timing from where the modules are to a target board.
///
/// Timing: a module's k-th flap (k = 1, 2, …) lands at its start + k × ``flapPeriod``; start
/// times come from the ``transition``. A module already moving when re-planned keeps the flap
/// in flight: its first landing is when that flap lands, the rest follow a period apart.
public struct FlipPlanner: Sendable {
    /// The shortest and longest flap periods a module can keep (ms).
    public static let flapPeriodRange = 50...200
    /// 120 ms: the default everywhere a plan is made.
    public static let defaultFlapPeriodMs = 120

    /// The flaps each module has, in order.
    public var drum: Drum
    /// Each module's own flaps, row-major, where modules differ (an RS-485 module given a reel
    /// of its own); nil: ``drum`` for every module.
    public var moduleDrums: [Drum]?
    /// Whether modules turn forward only or take the shorter way.
    public var motion: PanelMotion
    /// How long one flap takes at constant speed.
    public var flapPeriod: Duration
    /// The order and grouping in which modules start.
    public var transition: Transition
    /// The motor's model, for stepper-driven hardware: landings follow its acceleration profile
    /// instead of ``flapPeriod``.
    public var stepper: StepperProfile?
    /// Each module's own motion, row-major, where modules differ (an RS-485 module's stored flap
    /// positions and steps a revolution); nil: ``stepper`` for every module.
    public var moduleSteppers: [StepperProfile]?
    /// The shortest time between two commands the hardware can take (a Chainlink link sends the
    /// whole board in each): start times closer than this share the earlier one's command.
    public var commandInterval: Duration?
    /// The time one module's command takes on a bus that carries one at a time (an RS-485
    /// frame): the modules that move start in the transition's order, each at least this long
    /// after the one before it.
    public var frameInterval: Duration?

    /// The defaults: vestaboard drum, forward only, 120 ms, cascade.
    public init(
        drum: Drum = .vestaboard, motion: PanelMotion = .forwardOnly,
        flapPeriodMs: Int = FlipPlanner.defaultFlapPeriodMs, transition: Transition? = nil
    ) throws(PlanError) {
        guard Self.flapPeriodRange.contains(flapPeriodMs) else {
            throw PlanError("flap period must be 50 to 200 ms, not \(flapPeriodMs)")
        }
        self.drum = drum
        self.motion = motion
        self.flapPeriod = .milliseconds(flapPeriodMs)
        if let transition { self.transition = transition } else { self.transition = try Transition() }
    }

    /// The plan from a board showing `current` (each code mapped onto the drum) to `target`.
    public func plan(from current: Board, to target: Board) throws(PlanError) -> FlipPlan {
        var warnings: [String] = []
        let positions = current.codes.indices.map { mapped(current.codes[$0], module: $0, warnings: &warnings) }
        return try plan(from: positions.map { ModuleMotion(position: $0) }, to: target, warnings: warnings)
    }

    /// The plan from the modules' state (`FlipPlan.motion(at:)` of a plan in progress, or
    /// drum indices at rest), row-major, to `target`.
    public func plan(from state: [ModuleMotion], to target: Board) throws(PlanError) -> FlipPlan {
        try plan(from: state, to: target, warnings: [])
    }

    private func plan(from state: [ModuleMotion], to target: Board, warnings: [String]) throws(PlanError) -> FlipPlan {
        let size = target.size
        guard state.count == size.count else {
            throw PlanError("the board has \(size.count) modules (\(size)) but \(state.count) positions were given")
        }
        if let bad = state.indices.first(where: { !(0..<drum(ofModule: $0).count).contains(state[$0].position) }) {
            throw PlanError(
                "module at row \(bad / size.columns + 1), column \(bad % size.columns + 1) is at flap \(state[bad].position), outside the \(drum(ofModule: bad).count)-flap drum"
            )
        }
        var warnings = warnings
        var random = SeededRandom(seed: transition.seed ^ 0xC1AC_C1AC)
        let paths = state.indices.map { i in
            self.path(
                from: state[i].position, to: mapped(target.codes[i], module: i, warnings: &warnings), inFlight: state[i].nextLanding != nil,
                drumCount: drum(ofModule: i).count)
        }
        let offsets = spread(grouped(transition.startOffsets(for: size)), moving: paths.map { $0.count > 1 })
        // Every clack's time (whole nanoseconds: comparing 128-bit Durations cost more than the
        // rest of a plan), loudness and module, in module order; each array sized once.
        let clackCount = paths.reduce(0) { $0 + $1.count - 1 }
        var times: [Int64] = [], owners: [Int32] = []
        times.reserveCapacity(clackCount)
        owners.reserveCapacity(clackCount)
        // Drawn in module order, clack by clack, as the modules are planned.
        let gains = (0..<clackCount).map { _ in 0.9 + 0.2 * random.unit() }
        var modules: [ModulePlan] = []
        modules.reserveCapacity(size.count)
        for (i, module) in state.enumerated() {
            let path = paths[i]
            var start = offsets[i]
            var first = start + flapPeriod
            if motion == .forwardOnly, let landing = module.nextLanding {
                start = .zero
                first = landing
            }
            let nanoseconds = landingNanoseconds(
                path: path, start: start, first: first, inFlight: module.nextLanding != nil,
                stepper: moduleSteppers.flatMap { i < $0.count ? $0[i] : nil } ?? stepper)
            times.append(contentsOf: nanoseconds)
            owners.append(contentsOf: repeatElement(Int32(truncatingIfNeeded: i), count: nanoseconds.count))
            modules.append(
                ModulePlan(
                    row: i / size.columns, column: i % size.columns, path: path, start: start,
                    landings: nanoseconds.map(Duration.init(wholeNanoseconds:))))
        }
        // By time, then row and column: modules were taken in row-major order, and the order is
        // stable.
        // Rows and columns looked up, not divided out for every clack.
        let rows = (0..<size.count).map { $0 / size.columns }, columns = (0..<size.count).map { $0 % size.columns }
        let order = TimeOrder.indices(times)
        // Never asked for an empty buffer: that writes its count into the stdlib's one shared empty
        // array, which the thread sanitizer reports when two plans are empty at once.
        let ordered =
            order.isEmpty
            ? []
            : [ClackEvent](unsafeUninitializedCapacity: order.count) { events, initialized in
                // Unchecked reads: every index comes from the sort of these very arrays.
                times.withUnsafeBufferPointer { times in
                    owners.withUnsafeBufferPointer { owners in
                        gains.withUnsafeBufferPointer { gains in
                            for (n, k) in order.enumerated() {
                                let i = Int(owners[k])
                                events.initializeElement(
                                    at: n,
                                    to: ClackEvent(time: Duration(wholeNanoseconds: times[k]), row: rows[i], column: columns[i], gain: gains[k]))
                            }
                        }
                    }
                }
                initialized = order.count
            }
        return FlipPlan(
            size: size, drum: drum, modules: modules, clackEvents: ordered, warnings: warnings, transition: transition, moduleDrums: moduleDrums)
    }

    /// When each flap of `path` lands, in nanoseconds from the plan's start: a period apart, or
    /// as the stepper's profile moves. (Whole nanoseconds: Duration's arithmetic is 128-bit and
    /// cost more than the rest of a plan.)
    private func landingNanoseconds(path: [Int], start: Duration, first: Duration, inFlight: Bool, stepper: StepperProfile?) -> [Int64] {
        let count = path.count - 1
        guard count > 0 else { return [] }
        let origin = first.wholeNanoseconds
        guard let stepper else {
            let period = flapPeriod.wholeNanoseconds
            return (0..<count).map { origin + period * Int64($0) }
        }
        if motion == .forwardOnly, inFlight {
            // Already turning: the flap in flight keeps its landing, the rest follow at speed.
            return [origin] + stepper.landings(from: path[1], flaps: count - 1, cruising: true).map { origin + $0.wholeNanoseconds }
        }
        let startNanoseconds = start.wholeNanoseconds
        return stepper.landings(from: path[0], flaps: count).map { startNanoseconds + $0.wholeNanoseconds }
    }

    /// Start times moved onto the commands that can carry them: each command starts every module
    /// due before the next one may be sent.
    private func grouped(_ offsets: [Duration]) -> [Duration] {
        guard let commandInterval, commandInterval > .zero else { return offsets }
        var command: Duration?
        var moved = offsets
        for i in offsets.indices.sorted(by: { offsets[$0] < offsets[$1] }) {
            if let current = command, offsets[i] < current + commandInterval {
                moved[i] = current
            } else {
                command = offsets[i]
            }
        }
        return moved
    }

    /// Start times spread over a bus that carries one module's command at a time: the moving
    /// modules' commands go in the order of their start, each at least ``frameInterval`` after
    /// the one before, and each module starts once its command has crossed the bus.
    private func spread(_ offsets: [Duration], moving: [Bool]) -> [Duration] {
        guard let frameInterval, frameInterval > .zero else { return offsets }
        var spread = offsets
        var previous: Duration?
        for i in offsets.indices.sorted(by: { (offsets[$0], $0) < (offsets[$1], $1) }) where moving[i] {
            let sent = previous.map { max(offsets[i], $0 + frameInterval) } ?? offsets[i]
            spread[i] = sent + frameInterval
            previous = sent
        }
        return spread
    }

    /// Drum indices from `from` to `to`, both included. A forward-only module with a flap in
    /// flight cannot stop where it is: if its target is where it is, it goes round once.
    func path(from: Int, to: Int, inFlight: Bool, drumCount: Int? = nil) -> [Int] {
        let n = drumCount ?? drum.count
        let forward = (to - from + n) % n
        if motion == .forwardOnly {
            return Self.walk(from: from, steps: forward == 0 && inFlight ? n : forward, backwards: false, drumCount: n)
        }
        let backward = (from - to + n) % n
        return backward < forward
            ? Self.walk(from: from, steps: backward, backwards: true, drumCount: n)
            : Self.walk(from: from, steps: forward, backwards: false, drumCount: n)
    }

    /// `steps` + 1 drum indices from `from`, one flap apart, wrapping round the drum. (Wrapping by
    /// comparison: a division per flap was a large part of a plan's time.)
    private static func walk(from: Int, steps: Int, backwards: Bool, drumCount n: Int) -> [Int] {
        [Int](unsafeUninitializedCapacity: steps + 1) { indices, count in
            var index = from
            for k in 0...steps {
                indices[k] = index
                if backwards {
                    index = index == 0 ? n - 1 : index - 1
                } else {
                    index = index == n - 1 ? 0 : index + 1
                }
            }
            count = steps + 1
        }
    }

    /// Module `index`'s drum: its own where it has one.
    func drum(ofModule index: Int) -> Drum { drum.drum(ofModule: index, in: moduleDrums) }

    private func mapped(_ code: CharacterCode, module: Int, warnings: inout [String]) -> Int {
        let drum = drum(ofModule: module)
        let (index, fellBack) = drum.flap(for: code)
        if fellBack {
            let note = "drum \(drum.name) has no \(code): shown as \(drum.codes[index])"
            if !warnings.contains(note) { warnings.append(note) }
        }
        return index
    }
}

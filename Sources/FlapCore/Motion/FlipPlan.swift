/// The motion of one module in a plan.
public struct ModulePlan: Sendable, Equatable {
    /// 0-based position on the board.
    public var row: Int
    /// 0-based column.
    public var column: Int
    /// Drum indices from where the module is to its target; the first is where it starts, and
    /// a module that does not move has a one-index path.
    public var path: [Int]
    /// When the module starts moving, from the plan's start.
    public var start: Duration
    /// When each flap lands: `landings[k]` is when `path[k + 1]` shows.
    public var landings: [Duration]

    /// When the module comes to rest: its last landing, or its start if it does not move.
    public var end: Duration { landings.last ?? start }
    /// The drum index it starts at and the one it ends on. A path is never empty (a module that
    /// does not move has its one index), so the zeros are never given.
    public var origin: Int { path.first ?? 0 }
    /// The drum index it ends on (its ``origin`` when it does not move).
    public var target: Int { path.last ?? 0 }
}

/// One flap landing: what the clack track plays.
public struct ClackEvent: Sendable, Equatable {
    /// When the flap lands, from the plan's start.
    public var time: Duration
    /// The module's row, 0-based.
    public var row: Int
    /// The module's column, 0-based.
    public var column: Int
    /// Loudness relative to the clack sample, 0.9–1.1 (a seeded ±10 % variation).
    public var gain: Double
}

/// Where a module is at one instant of a plan: what it shows and, if a flap is falling, when
/// that flap lands (from that instant).
public struct ModuleMotion: Sendable, Equatable {
    /// The drum index showing now.
    public var position: Int
    /// When the flap in flight lands, or nil when the module is at rest.
    public var nextLanding: Duration?

    /// A module showing `position`, its falling flap landing after `nextLanding` (nil: at rest).
    public init(position: Int, nextLanding: Duration? = nil) {
        self.position = position
        self.nextLanding = nextLanding
    }
}

/// Every module's motion from one board to the next, computed before anything moves.
public struct FlipPlan: Sendable, Equatable {
    /// The board's size.
    public var size: BoardSize
    /// The drum every module turns.
    public var drum: Drum
    /// One per module, row-major.
    public var modules: [ModulePlan]
    /// Every landing, in time order (ties by row, then column).
    public var clackEvents: [ClackEvent]
    /// Codes the drum lacked and what is shown instead.
    public var warnings: [String]
    /// The transition the plan was made with (a remote board given the plan makes its own).
    public var transition: Transition? = nil
    /// Each module's own flaps, row-major, where modules differ; nil: ``drum`` for every module.
    public var moduleDrums: [Drum]? = nil

    /// Module `index`'s drum (row-major), which its path's indices are on.
    public func drum(ofModule index: Int) -> Drum { drum.drum(ofModule: index, in: moduleDrums) }

    /// The drum `module`'s path is on.
    public func drum(of module: ModulePlan) -> Drum { drum(ofModule: module.row * size.columns + module.column) }

    /// The last landing of the plan (zero when nothing moves).
    public var duration: Duration { modules.reduce(.zero) { max($0, $1.landings.last ?? .zero) } }

    /// Where every module is at `time` (from the plan's start), row-major: the state to
    /// re-plan from when a new target arrives during the motion.
    public func motion(at time: Duration) -> [ModuleMotion] {
        modules.map { module in
            let landed = module.landings.prefix { $0 <= time }.count
            let next = landed < module.landings.count && time >= module.start ? module.landings[landed] - time : nil
            return ModuleMotion(position: module.path[landed], nextLanding: next)
        }
    }

    /// What the board shows at `time`.
    public func board(at time: Duration) -> Board {
        Board(size: size, positions: motion(at: time).map(\.position), drum: drum, moduleDrums: moduleDrums)
    }

    /// What the board shows when the plan is done.
    public var finalBoard: Board { board(at: duration) }
}

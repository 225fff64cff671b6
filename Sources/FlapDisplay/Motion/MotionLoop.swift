import FlapCore
import FlapHardware

/// Moves one panel: plans each new target from where the modules are at that instant (a plan
/// in progress is re-planned, never waited for), plays it, and reports when the panel rests.
public actor MotionLoop<C: Clock> where C.Duration == Duration {
    /// The panel it moves.
    public nonisolated let panel: any Panel
    private let clock: C
    private var planner: FlipPlanner
    private var running: Running?
    private var generation = 0
    private let (events, eventsContinuation) = AsyncStream.makeStream(of: MotionEvent.self)

    private struct Running {
        var plan: FlipPlan
        var start: C.Instant
        var generation: Int
        var token: String?
        var task: Task<Void, Never>
        var cutoff: PlayCutoff
    }

    /// Told each plan and the instant it starts, synchronously, so sound can line up with it.
    private let onPlanStart: (@Sendable (FlipPlan, C.Instant) -> Void)?

    /// A loop for `panel`, planning with `planner` (its drum and motion must be the panel's).
    public init(panel: any Panel, planner: FlipPlanner, clock: C, onPlanStart: (@Sendable (FlipPlan, C.Instant) -> Void)? = nil) {
        self.panel = panel
        self.planner = planner
        self.clock = clock
        self.onPlanStart = onPlanStart
    }

    /// Plan starts, completions and failures, in order.
    public nonisolated var motionEvents: AsyncStream<MotionEvent> { events }

    /// Whether a plan is playing.
    public var isMoving: Bool { running != nil }
    /// Plans handed to the panel so far.
    public private(set) var plansStarted = 0

    /// What the panel shows while at rest (its drum positions as codes).
    public func restingBoard() async -> Board {
        Board(
            size: panel.info.size, positions: await panel.positions(), drum: panel.info.drum,
            moduleDrums: await panel.planTiming().moduleDrums)
    }

    /// How long moving to `target` would take if it began now, from where the modules are
    /// (mid-flip too); nothing moves. Nil when no plan reaches it.
    public func duration(to target: Board, transition: Transition? = nil) async -> Duration? {
        let state: [ModuleMotion]
        if let running {
            state = running.plan.motion(at: running.start.duration(to: clock.now))
        } else {
            state = await panel.positions().map { ModuleMotion(position: $0) }
        }
        var planner = self.planner
        if let transition { planner.transition = transition }
        planner.time(by: await panel.planTiming())
        return try? planner.plan(from: state, to: target).duration
    }

    /// The transition of the plans that are not given one (Home Assistant's select, `/v1/controls`).
    public func setDefaultTransition(_ transition: Transition) {
        planner.transition = transition
    }

    /// Moves the panel to `target`, starting now. `token` comes back with the completion (the
    /// message id shown). Returns once the plan has started.
    public func show(_ target: Board, transition: Transition? = nil, token: String?) async throws {
        let now = clock.now
        let state: [ModuleMotion]
        if let running {
            let elapsed = running.start.duration(to: now)
            state = running.plan.motion(at: elapsed)
            running.cutoff.cut(at: elapsed)
            running.task.cancel()
            await running.task.value
            self.running = nil
        } else {
            state = await panel.positions().map { ModuleMotion(position: $0) }
        }
        var planner = self.planner
        if let transition { planner.transition = transition }
        // The hardware's timing now, with the modules' own motion as they last told it.
        planner.time(by: await panel.planTiming())
        let plan = try planner.plan(from: state, to: target)
        generation += 1
        let generation = self.generation
        let panel = self.panel
        let cutoff = PlayCutoff()
        let task = Task {
            do {
                try await panel.play(plan, cutoff: cutoff)
                self.finished(generation, board: plan.finalBoard)
            } catch is CancellationError {
            } catch {
                self.failed(generation, error: error)
            }
        }
        running = Running(plan: plan, start: now, generation: generation, token: token, task: task, cutoff: cutoff)
        plansStarted += 1
        onPlanStart?(plan, now)
        eventsContinuation.yield(.started(plan: plan, token: token))
    }

    /// Stops motion and leaves the panel safe.
    public func stop() async {
        if let running {
            running.task.cancel()
            await running.task.value
            self.running = nil
        }
        await panel.shutDown()
        eventsContinuation.finish()
    }

    private func finished(_ generation: Int, board: Board) {
        guard let running, running.generation == generation else { return }
        self.running = nil
        eventsContinuation.yield(.rested(board: board, token: running.token, flaps: running.plan.clackEvents.count))
    }

    private func failed(_ generation: Int, error: any Error) {
        guard let running, running.generation == generation else { return }
        self.running = nil
        eventsContinuation.yield(.failed(error: String(describing: error), token: running.token))
    }
}

/// What a motion loop reports.
public enum MotionEvent: Sendable {
    /// A plan started playing now.
    case started(plan: FlipPlan, token: String?)
    /// The panel came to rest showing `board`; `flaps` landed on the way.
    case rested(board: Board, token: String?, flaps: Int)
    /// The panel failed while moving.
    case failed(error: String, token: String?)
}

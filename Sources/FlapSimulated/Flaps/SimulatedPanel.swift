import FlapCore
import FlapHardware
import FlapPrimitives

/// A split-flap panel simulated at its modules: it plays plans on the clock it is given, moving
/// each module flap by flap at the planned instants, and records every start and landing so a
/// test can ask what the board showed at any instant. `flapd --simulate` draws one in the terminal.
public actor SimulatedPanel<C: Clock>: Panel where C.Duration == Duration {
    /// Its size and drum.
    public nonisolated let info: PanelInfo
    private let clock: C
    private let initial: [Int]
    private var current: [Int]
    private var moving: [Bool]
    private let recordsHistory: Bool
    /// Every module start and landing, in order, when the panel records its history.
    public private(set) var history: [PanelEvent<C.Instant>] = []
    private let watchers = Watchers<PanelSnapshot>()
    /// Plans begun: a test on a virtual clock waits for this before advancing time, since the
    /// plan's time zero is the clock's reading when play began.
    public private(set) var playsStarted = 0
    /// Plans played to the end.
    public private(set) var playsCompleted = 0

    /// A panel whose modules start at `positions` (row-major drum indices; all home by default).
    public init(info: PanelInfo, clock: C, positions: [Int]? = nil, recordsHistory: Bool = false) {
        self.info = info
        self.clock = clock
        let start = positions ?? Array(repeating: 0, count: info.size.count)
        precondition(start.count == info.size.count, "one position per module")
        initial = start
        current = start
        moving = Array(repeating: false, count: start.count)
        self.recordsHistory = recordsHistory
    }

    /// Plays the plan on the clock, landing each flap when the plan says; cut short by `cutoff`.
    public func play(_ plan: FlipPlan, cutoff: PlayCutoff) async throws {
        let start = clock.now
        playsStarted += 1
        defer { moving = Array(repeating: false, count: moving.count) }
        let timeline = PanelTimeline(plan).groups
        for (index, group) in timeline.enumerated() {
            do {
                try await clock.sleep(until: start.advanced(by: group.time), tolerance: nil)
            } catch {
                // Cut short: land what was due by the cutoff, so the next plan starts from here.
                let limit = cutoff.elapsed ?? start.duration(to: clock.now)
                for due in timeline[index...] where due.time <= limit { apply(due, start: start) }
                publish()
                throw error
            }
            apply(group, start: start)
            publish()
        }
        playsCompleted += 1
    }

    private func apply(_ group: PanelTimeline.Group, start: C.Instant) {
        let instant = start.advanced(by: group.time)
        for change in group.changes {
            switch change.kind {
            case .started:
                moving[change.module] = true
            case .landed(let position):
                current[change.module] = position
                moving[change.module] = !change.last
            }
            if recordsHistory { history.append(PanelEvent(instant: instant, module: change.module, kind: change.kind)) }
        }
    }

    /// Where each module is.
    public func positions() -> [Int] { current }

    /// A simulation is always well.
    public func health() -> PanelHealth { PanelHealth() }

    /// Modules start on plan (within a stepping pass): no revisions.
    public func revisions() -> AsyncStream<PlanRevision> { AsyncStream { $0.finish() } }

    /// A simulation has nothing to report.
    public func notices() -> AsyncStream<PanelNotice> { AsyncStream { $0.finish() } }

    /// Stops every module where it is and ends its snapshots.
    public func shutDown() {
        moving = Array(repeating: false, count: moving.count)
        publish()
        watchers.finishAll()
    }

    /// The board shown now.
    public var board: Board { board(of: current) }

    /// What the board showed at `instant`, from the recorded history.
    public func board(at instant: C.Instant) -> Board {
        var positions = initial
        for event in history where event.instant <= instant {
            if case .landed(let p) = event.kind { positions[event.module] = p }
        }
        return board(of: positions)
    }

    /// Snapshots after every change, starting with the board as it is now.
    public func snapshots() -> AsyncStream<PanelSnapshot> {
        watchers.watch(bufferingPolicy: .bufferingNewest(1), first: [PanelSnapshot(board: board, moving: moving)])
    }

    private func publish() {
        guard !watchers.isEmpty else { return }
        watchers.yield(PanelSnapshot(board: board, moving: moving))
    }

    private func board(of positions: [Int]) -> Board {
        Board(size: info.size, positions: positions, drum: info.drum)
    }
}

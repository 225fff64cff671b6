import FlapCore
import FlapHardware
import FlapPrimitives
import FlapStorage
import FoundationEssentials

/// A real Vestaboard as a panel: each plan's final board goes to the board through the
/// delivery queue (retried, spaced, coalesced as the queue does), and the panel counts as moving
/// until the board took it and then for the plan's own duration, the time a board of this drum
/// takes to flip there (the APIs do not say when the flaps stop; a real board may take a few
/// seconds more or less).
///
/// An array of Notes is one panel of the combined size: each Note's part goes through its own
/// worker of the queue, so a Note that is down holds back only its own part, and the others show
/// theirs at once.
///
/// A plan cut short cannot stop a remote board: the write already queued is superseded by the
/// next plan's when that one comes before it was sent; once sent, the board goes on to it.
public actor VestaboardPanel<C: Clock<Duration>>: QueuesDeliveries where C: Sendable {
    /// One board of the panel: the whole panel, or one Note of an array.
    public struct Part: Sendable {
        /// Its delivery worker.
        public let delivery: BoardDelivery<C>
        /// The part of the panel it shows.
        public let region: BoardRegion

        /// A part shown by `delivery` at `region`.
        public init(delivery: BoardDelivery<C>, region: BoardRegion) {
            self.delivery = delivery
            self.region = region
        }
    }

    /// The panel's size and drum.
    public nonisolated let info: PanelInfo
    private nonisolated let parts: [Part]
    private let clock: C
    private let strategy: DeliveryStrategy
    /// Whether the API takes a transition (the Local API does, but not for an array).
    private let takesTransitions: Bool
    private var current: [Int]
    /// Whether each part's board took the last write tried.
    private var connected: [Bool]
    private var notify: AsyncStream<PanelNotice>.Continuation?
    /// Outcomes that came before their play asked for them (the write finished while `send`
    /// returned). Only each part's newest write's is ever asked for: older ones (superseded, or
    /// their play cancelled) are not kept, or they pile up (a soak saw 5 MiB an hour).
    private var outcomes: [Int64: Delivery] = [:]
    /// Plays waiting for their write's outcome, by delivery id.
    private let waiters = Waiters<Int64, Delivery>()
    /// Each part's newest write a play queued.
    private var newest: [Int64]

    /// Each part's delivery worker, in the order of the parts.
    public nonisolated var deliveries: [BoardDelivery<C>] { parts.map(\.delivery) }

    /// Outcomes held now, for tests: at most each part's newest write's.
    var heldOutcomes: Int { outcomes.count }
    private var following: [Task<Void, Never>] = []

    /// A panel of one board.
    public init(info: PanelInfo, delivery: BoardDelivery<C>, clock: C, strategy: DeliveryStrategy, takesTransitions: Bool, positions: [Int]? = nil) {
        self.init(
            info: info, parts: [Part(delivery: delivery, region: .whole(info.size))], clock: clock, strategy: strategy,
            takesTransitions: takesTransitions, positions: positions)
    }

    /// A panel of `parts`, which together cover its board.
    public init(info: PanelInfo, parts: [Part], clock: C, strategy: DeliveryStrategy, takesTransitions: Bool, positions: [Int]? = nil) {
        self.info = info
        self.parts = parts
        self.clock = clock
        self.strategy = strategy
        self.takesTransitions = takesTransitions
        current = positions ?? Array(repeating: 0, count: info.size.count)
        connected = Array(repeating: true, count: parts.count)
        newest = Array(repeating: 0, count: parts.count)
    }

    /// Starts following the queue's outcomes.
    public func start() {
        following = parts.indices.map { index in
            Task { [delivery = parts[index].delivery] in
                for await outcome in delivery.outcomes { settled(outcome, part: index) }
            }
        }
    }

    /// The panel as notices name it: `hall`, or `hall Note 2` for a Note of an array.
    private func name(_ part: Int) -> String {
        parts[part].delivery.note.map { "\(info.id) Note \($0)" } ?? info.id
    }

    private func settled(_ outcome: Delivery, part: Int) {
        if !waiters.answer(outcome.id, with: outcome), outcome.id >= newest[part] {
            outcomes[outcome.id] = outcome
        }
        switch outcome.state {
        case .failed:
            connected[part] = false
            notify?.yield(PanelNotice(.error, "\(name(part)): the Vestaboard did not take the board: \(outcome.lastError ?? "unknown")"))
        case .conflict:
            notify?.yield(PanelNotice(.warning, "\(name(part)): the Vestaboard shows a message flapd did not write; left as it is"))
        case .sent:
            if !connected[part] { notify?.yield(PanelNotice(.info, "\(name(part)): the Vestaboard is reachable again")) }
            connected[part] = true
            if outcome.conflictSeen { notify?.yield(PanelNotice(.warning, "\(name(part)): the Vestaboard showed another message when read back")) }
        default: break
        }
    }

    /// Queues the plan's final board for each part; the board's own motion plays it.
    public func play(_ plan: FlipPlan, cutoff: PlayCutoff) async throws {
        let rows = plan.board(at: plan.duration).codeRows
        let transition = takesTransitions ? Self.boardTransition(plan.transition) : nil
        // Every part is queued before any is waited for: the Notes of an array flip together.
        var queued: [Int64] = []
        for (index, part) in parts.enumerated() {
            let delivery = try await queue(part.region.rows(of: rows), on: part.delivery, transition: transition)
            newest[index] = max(newest[index], delivery.id)
            queued.append(delivery.id)
        }
        outcomes = outcomes.filter { id, _ in newest.contains { id >= $0 } }
        var refused: [(part: Int, outcome: Delivery)] = []
        for (index, id) in queued.enumerated() {
            let outcome = await result(of: id)
            try Task.checkCancellation()
            switch outcome.state {
            case .sent:
                land(plan, in: parts[index].region)
            case .superseded:
                throw CancellationError()
            default:
                refused.append((index, outcome))
            }
        }
        guard let first = refused.first else {
            try await clock.sleep(for: plan.duration, tolerance: nil)
            return
        }
        let names = refused.map { name($0.part) }.joined(separator: ", ")
        throw HardwareError(
            device: "Vestaboard \(names)", problem: first.outcome.lastError ?? "the board did not take the message",
            remedy: first.outcome.state == .conflict ? "see flapctl queue; retry to overwrite" : "see flapctl queue")
    }

    /// The modules of `region` rest where `plan` leaves them.
    private func land(_ plan: FlipPlan, in region: BoardRegion) {
        for (index, module) in plan.modules.enumerated() where region.contains(row: module.row, column: module.column) {
            current[index] = module.target
        }
    }

    /// How long a board the disk could not queue waits before it is tried again.
    static var storageRetry: Duration { .seconds(2) }

    /// Queues `rows`; while the disk cannot take it (full, read-only) tries again every 2 s,
    /// until it can or a newer plan cancels this one, so the board catches up by itself. The
    /// fault itself is logged once by the queue's storage health.
    private func queue(_ rows: [[Int]], on delivery: BoardDelivery<C>, transition: BoardTransition?) async throws -> Delivery {
        while true {
            do {
                return try await delivery.send(rows, transition: transition, strategy: strategy, messageId: nil)
            } catch is StorageFault {
                try await clock.sleep(for: Self.storageRetry, tolerance: nil)
            }
        }
    }

    /// The write's outcome; a cancelled play no longer waits for it (the queue still delivers
    /// the write unless a newer one supersedes it) and gets ``Delivery/abandoned(_:)``.
    private func result(of id: Int64) async -> Delivery {
        if let done = outcomes.removeValue(forKey: id) { return done }
        return await waiters.wait(for: id, cancelled: .abandoned(id))
    }

    /// The plan's transition as the Local API takes it; flapd's cascade has no equal there, and
    /// the board's own default stands in for it.
    static func boardTransition(_ transition: Transition?) -> BoardTransition? {
        guard let transition, transition.strategy != .cascade else { return nil }
        return BoardTransition(
            strategy: transition.strategy.rawValue, stepSize: transition.stepSize,
            stepIntervalMs: Int(transition.stepInterval / .milliseconds(1)))
    }

    /// What the board was last written, as drum positions.
    public func positions() -> [Int] { current }

    /// Stops following the deliveries.
    public func shutDown() async {
        for task in following { task.cancel() }
        for task in following { await task.value }
        notify?.finish()
    }

    /// Connected while every part's board answers.
    public func health() async -> PanelHealth { PanelHealth(connected: !connected.contains(false)) }

    /// What happened worth telling (a board not reached, another message read back).
    public func notices() -> AsyncStream<PanelNotice> { AsyncStream { notify = $0 } }

    /// None: a Vestaboard does not report its own landings.
    public func revisions() -> AsyncStream<PlanRevision> { AsyncStream { $0.finish() } }
}

extension Delivery {
    /// The stand-in outcome a cancelled play gets.
    static func abandoned(_ id: Int64) -> Delivery {
        Delivery(
            id: id, panel: "", rows: [], transition: nil, strategy: .queued, messageId: nil, state: .superseded, attempts: 0,
            createdAt: .distantPast, notBefore: .distantPast, lastError: nil, finishedAt: nil, conflictSeen: false)
    }
}

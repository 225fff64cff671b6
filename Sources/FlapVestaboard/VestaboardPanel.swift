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
/// A plan cut short cannot stop a remote board: the write already queued is superseded by the
/// next plan's when that one comes before it was sent; once sent, the board goes on to it.
public actor VestaboardPanel<C: Clock<Duration>>: Panel where C: Sendable {
    public nonisolated let info: PanelInfo
    private let delivery: BoardDelivery<C>
    private let clock: C
    private let strategy: DeliveryStrategy
    /// Whether the API takes a transition (the Local API does).
    private let takesTransitions: Bool
    private var current: [Int]
    private var connected = true
    private var notify: AsyncStream<PanelNotice>.Continuation?
    /// Outcomes that came before their play asked for them (the write finished while `send`
    /// returned). Only the newest write's is ever asked for: older ones (superseded, or their
    /// play cancelled) are not kept, or they pile up (a soak saw 5 MiB an hour).
    private var outcomes: [Int64: Delivery] = [:]
    /// Plays waiting for their write's outcome, by delivery id.
    private let waiters = Waiters<Int64, Delivery>()
    /// The newest write a play queued.
    private var newest: Int64 = 0

    /// Outcomes held now, for tests: at most the newest write's.
    var heldOutcomes: Int { outcomes.count }
    private var following: Task<Void, Never>?

    public init(info: PanelInfo, delivery: BoardDelivery<C>, clock: C, strategy: DeliveryStrategy, takesTransitions: Bool, positions: [Int]? = nil) {
        self.info = info
        self.delivery = delivery
        self.clock = clock
        self.strategy = strategy
        self.takesTransitions = takesTransitions
        current = positions ?? Array(repeating: 0, count: info.size.count)
    }

    /// Starts following the queue's outcomes.
    public func start() {
        following = Task { [delivery] in
            for await outcome in delivery.outcomes { settled(outcome) }
        }
    }

    private func settled(_ outcome: Delivery) {
        if !waiters.answer(outcome.id, with: outcome), outcome.id >= newest {
            outcomes[outcome.id] = outcome
        }
        switch outcome.state {
        case .failed:
            connected = false
            notify?.yield(PanelNotice(.error, "\(info.id): the Vestaboard did not take the board: \(outcome.lastError ?? "unknown")"))
        case .conflict:
            notify?.yield(PanelNotice(.warning, "\(info.id): the Vestaboard shows a message flapd did not write; left as it is"))
        case .sent:
            if !connected { notify?.yield(PanelNotice(.info, "\(info.id): the Vestaboard is reachable again")) }
            connected = true
            if outcome.conflictSeen { notify?.yield(PanelNotice(.warning, "\(info.id): the Vestaboard showed another message when read back")) }
        default: break
        }
    }

    public func play(_ plan: FlipPlan, cutoff: PlayCutoff) async throws {
        let target = plan.board(at: plan.duration)
        let rows = target.codeRows
        let queued = try await queue(rows, transition: takesTransitions ? Self.boardTransition(plan.transition) : nil)
        newest = max(newest, queued.id)
        outcomes = outcomes.filter { $0.key >= newest }
        let outcome = await result(of: queued.id)
        try Task.checkCancellation()
        switch outcome.state {
        case .sent:
            try await clock.sleep(for: plan.duration, tolerance: nil)
            current = plan.modules.map { $0.path.last! }
        case .superseded:
            throw CancellationError()
        default:
            throw HardwareError(
                device: "Vestaboard \(info.id)", problem: outcome.lastError ?? "the board did not take the message",
                remedy: outcome.state == .conflict ? "see flapctl queue; retry to overwrite" : "see flapctl queue")
        }
    }

    /// How long a board the disk could not queue waits before it is tried again.
    static var storageRetry: Duration { .seconds(2) }

    /// Queues `rows`; while the disk cannot take it (full, read-only) tries again every 2 s,
    /// until it can or a newer plan cancels this one, so the board catches up by itself. The
    /// fault itself is logged once by the queue's storage health.
    private func queue(_ rows: [[Int]], transition: BoardTransition?) async throws -> Delivery {
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

    public func positions() -> [Int] { current }

    public func shutDown() async {
        following?.cancel()
        await following?.value
        notify?.finish()
    }

    public func health() async -> PanelHealth { PanelHealth(connected: connected) }

    public func notices() -> AsyncStream<PanelNotice> { AsyncStream { notify = $0 } }

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

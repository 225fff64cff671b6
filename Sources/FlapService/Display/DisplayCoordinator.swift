import FlapCore
import FlapHardware
import FlapMessaging
import Foundation
import Logging

/// Keeps one panel showing what its policy chooses from the inbox: re-chooses when the inbox
/// changes, a slot expires or the rotation turns; hands targets to the motion loop; and records
/// `displayed` (with the panel's board, for a restart) only once the panel has come to rest.
public actor DisplayCoordinator<C: Clock> where C.Duration == Duration {
    public nonisolated let panelID: String
    private let inbox: Inbox
    private let motion: MotionLoop<C>
    private let policy: PanelPolicy
    private let renderer: MessageRenderer
    private let time: ServiceTime<C>
    private let logger: Logger
    private let observer: DisplayObserver?

    /// The message id the panel is showing or moving to (nil: blank board).
    public private(set) var target: String?
    private var targetBoard: Board?
    private var shownSince: C.Instant
    /// When the soonest live slot expires, as of the last refresh.
    private var soonestExpiry: Date? = .distantPast  // the first refresh expires what expired while flapd was off
    private var timer: Task<Void, Never>?
    private let (wakeups, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))

    public init(
        panelID: String, inbox: Inbox, motion: MotionLoop<C>, policy: PanelPolicy, size: BoardSize,
        time: ServiceTime<C>, logger: Logger, observer: DisplayObserver? = nil, showing: (board: Board, messageId: String?)? = nil
    ) {
        self.panelID = panelID
        self.inbox = inbox
        self.motion = motion
        self.policy = policy
        renderer = MessageRenderer(size: size)
        self.time = time
        self.logger = logger
        self.observer = observer
        target = showing?.messageId
        targetBoard = showing?.board
        shownSince = time.clock.now
    }

    /// Runs until cancelled.
    public func run() async {
        let inboxChanges = Task { [inbox, wake] in
            for await _ in inbox.changes { wake.yield() }
        }
        let motionEvents = Task { [motion] in
            for await event in motion.motionEvents { await self.handle(event) }
        }
        defer {
            inboxChanges.cancel()
            motionEvents.cancel()
            timer?.cancel()
        }
        // A panel with nothing to show stays as it is rather than re-planning to blank.
        if targetBoard == nil { targetBoard = await motion.restingBoard() }
        await refresh(rotationDue: false)
        for await _ in wakeups {
            if Task.isCancelled { break }
            await refresh(rotationDue: false)
        }
    }

    private func handle(_ event: MotionEvent) async {
        switch event {
        case .started(let plan, let token):
            // The wall-clock stamp lets a benchmark match plan starts with the requests that caused them.
            logger.debug("plan started", metadata: [
                "panel": "\(panelID)", "message": "\(token ?? "-")", "flaps": "\(plan.clackEvents.count)",
                "at": "\(String(format: "%.6f", time.now().timeIntervalSince1970))",
            ])
            await observer?.planStarted(panel: panelID, messageId: token, flaps: plan.clackEvents.count)
        case .rested(let board, let token, let flaps):
            do {
                try await inbox.markDisplayed(token, panel: panelID, board: board, now: time.now())
                logger.info("panel rested", metadata: ["panel": "\(panelID)", "message": "\(token ?? "-")", "flaps": "\(flaps)"])
                await observer?.displayed(panel: panelID, board: board, messageId: token, flaps: flaps)
            } catch {
                logger.error("could not record display", metadata: ["panel": "\(panelID)", "error": "\(error)"])
            }
        case .failed(let error, let token):
            logger.error("panel failed while moving", metadata: ["panel": "\(panelID)", "message": "\(token ?? "-")", "error": "\(error)"])
        }
    }

    /// Chooses again and moves the panel if the choice changed; arms the next deadline.
    private func refresh(rotationDue: Bool) async {
        do {
            // Expiring takes a write; it is needed only once the soonest expiry has come (a new
            // message's expiry is learnt from the slots read below, on the refresh it causes).
            if let due = soonestExpiry, due <= time.now() { try await inbox.expire(now: time.now()) }
            let slots = try await inbox.slots()
            soonestExpiry = slots.map(\.expiresAt).min()
            let chosen = policy.choose(from: slots, previous: target, rotationDue: rotationDue)
            var board = Board(size: renderer.size)
            if let chosen {
                do {
                    board = try renderer.board(for: chosen)
                } catch {
                    // Checked on arrival against the first panel; this panel may be another size.
                    try await inbox.reject(chosen.id, reason: "cannot be shown on panel \(panelID): \(error)", now: time.now())
                    return await refresh(rotationDue: rotationDue)
                }
            }
            if chosen?.id != target || board != targetBoard {
                target = chosen?.id
                targetBoard = board
                shownSince = time.clock.now
                let transition = chosen?.transition.flatMap { request in
                    try? Transition(strategy: request.strategy, stepSize: request.stepSize,
                                    stepIntervalMs: request.stepIntervalMs, seed: Self.seed(chosen!.id))
                }
                try await motion.show(board, transition: transition, token: chosen?.id)
            }
            try await armTimer(slots: slots.count, expiry: soonestExpiry)
        } catch {
            logger.error("display refresh failed", metadata: ["panel": "\(panelID)", "error": "\(error)"])
        }
    }

    /// Arms the wake-up for the next expiry or rotation. The old timer is cancelled only when
    /// replaced: it may be the task running this very call, and cancelling it earlier would make
    /// the inbox read below throw.
    private func armTimer(slots: Int, expiry: Date?) async throws {
        var deadline: C.Instant?
        if let expiry { deadline = time.instant(at: expiry) }
        var rotation = false
        if case .rotate(let every) = policy, slots > 1 {
            let turn = shownSince.advanced(by: every)
            if deadline == nil || turn < deadline! {
                deadline = turn
                rotation = true
            }
        }
        timer?.cancel()
        timer = nil
        guard let deadline else { return }
        let clock = time.clock
        timer = Task {
            guard (try? await clock.sleep(until: deadline, tolerance: nil)) != nil else { return }
            await self.refresh(rotationDue: rotation)
        }
    }

    static func seed(_ id: String) -> UInt64 {
        id.utf8.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 }
    }
}

/// Told about what the panels do, for metrics and tests.
public protocol DisplayObserver: Sendable {
    func planStarted(panel: String, messageId: String?, flaps: Int) async
    func displayed(panel: String, board: Board, messageId: String?, flaps: Int) async
}

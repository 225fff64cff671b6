import FlapCore
import FlapHardware
import FlapMessaging
import FlapPrimitives
import FlapStorage
import FlapTime
import FoundationEssentials
import Logging

/// Keeps one panel showing what its policy chooses from the inbox: re-chooses when the inbox
/// changes, a slot expires or the rotation turns; hands targets to the motion loop; and records
/// `displayed` (with the panel's board, for a restart) only once the panel has come to rest.
public actor DisplayCoordinator<C: Clock> where C.Duration == Duration {
    /// The panel it chooses for.
    public nonisolated let panelID: String
    private let inbox: Inbox
    private let motion: MotionLoop<C>
    private let policy: PanelPolicy
    private let renderer: MessageRenderer
    private let time: ServiceTime<C>
    private let logger: Logger
    /// Where it tells what it does (plans started, boards displayed), for whoever subscribes.
    private let events: Watchers<PanelEvent>?
    private let quiet: BoardQuietHours?
    /// "Quiet now", switched from Home Assistant or the API: the board holds still meanwhile.
    private let pause: BoardPause?
    /// The local time zone quiet hours are read in.
    private let zone: ZoneRules
    /// Whether timed decisions may go by the wall clock (``ClockTrust``).
    private let clockTrusted: @Sendable () -> Bool
    /// When the quiet hours the panel is in end (nil: not in them).
    public private(set) var quietUntil: Date?
    /// Whether the quiet hours' own board (blank, a quick message) has been shown in this span.
    private var quietBoardShown = false

    /// The message id the panel is showing or moving to (nil: blank board).
    public private(set) var target: String?
    private var targetBoard: Board?
    private var shownSince: C.Instant
    /// When the soonest live slot expires, as of the last refresh.
    private var soonestExpiry: Date? = .distantPast  // the first refresh expires what expired while flapd was off
    /// The next expiry, rotation or quiet-hours boundary.
    private let alarm: Alarm<C>
    private let (wakeups, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    /// Boards the panel came to rest on whose record the disk refused (full, read-only), oldest
    /// first: recorded, in order, once it takes them, so each message still ends `displayed`.
    private var unrecorded: [(token: String?, board: Board, flaps: Int)] = []
    private let (recordRetries, retryRecord) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    /// How long a refused record waits before it is tried again.
    static var recordRetryDelay: Duration { .seconds(2) }

    /// Chooses for panel `panelID` of `size` from `inbox` by `policy`, moving it through `motion`; `showing` is what it showed when flapd last stopped, `events` hears what happens.
    public init(
        panelID: String, inbox: Inbox, motion: MotionLoop<C>, policy: PanelPolicy, size: BoardSize,
        flap62: Flap62? = nil, time: ServiceTime<C>, logger: Logger, events: Watchers<PanelEvent>? = nil,
        showing: (board: Board, messageId: String?)? = nil,
        quiet: BoardQuietHours? = nil, zone: ZoneRules = .current(), clockTrusted: @escaping @Sendable () -> Bool = { true },
        pause: BoardPause? = nil
    ) {
        self.quiet = quiet
        self.pause = pause
        alarm = Alarm(clock: time.clock)
        self.zone = zone
        self.clockTrusted = clockTrusted
        self.panelID = panelID
        self.inbox = inbox
        self.motion = motion
        self.policy = policy
        renderer = MessageRenderer(size: size, flap62: flap62)
        self.time = time
        self.logger = logger
        self.events = events
        target = showing?.messageId
        targetBoard = showing?.board
        shownSince = time.clock.now
    }

    /// Runs until cancelled.
    public func run() async {
        // Watched from before the first choice, so a switch in between is not missed.
        let pauseChanges = pause?.changes()
        // Straight onto the wake-ups, without a task between: a message reaches the board sooner.
        inbox.changes(into: wake)
        await withDiscardingTaskGroup { group in
            if let pauseChanges {
                group.addTask { [wake] in
                    for await _ in pauseChanges { wake.yield() }
                }
            }
            group.addTask { [motion] in
                for await event in motion.motionEvents { await self.handle(event) }
            }
            group.addTask { [alarm] in
                for await _ in alarm.wakeups { await self.timerFired() }
            }
            group.addTask { [recordRetries, time] in
                for await _ in recordRetries {
                    guard (try? await time.clock.sleep(for: Self.recordRetryDelay)) != nil else { break }
                    await self.recordRested()
                }
            }
            // A panel with nothing to show stays as it is rather than re-planning to blank.
            if targetBoard == nil { targetBoard = await motion.restingBoard() }
            await refresh(rotationDue: false)
            for await _ in wakeups {
                if Task.isCancelled { break }
                await refresh(rotationDue: false)
            }
            group.cancelAll()
        }
        // Ended, so the inbox lets go of it at its next change.
        wake.finish()
        await alarm.stop()
    }

    private func handle(_ event: MotionEvent) async {
        switch event {
        case .started(let plan, let token):
            // The wall-clock stamp lets a benchmark match plan starts with the requests that caused them.
            logger.debug(
                "plan started",
                metadata: [
                    "panel": "\(panelID)", "message": "\(token ?? "-")", "flaps": "\(plan.clackEvents.count)",
                    "at": "\(String(cFormat: "%.6f", time.now().timeIntervalSince1970))"
                ])
            events?.yield(.planStarted(panel: panelID, messageId: token, flaps: plan.clackEvents.count))
        case .rested(let board, let token, let flaps):
            unrecorded.append((token, board, flaps))
            await recordRested()
        case .failed(let error, let token):
            logger.error("panel failed while moving", metadata: ["panel": "\(panelID)", "message": "\(token ?? "-")", "error": "\(error)"])
        }
    }

    /// Records the boards the panel rested on (`displayed`, and the board for a restart), in
    /// order. One the disk refuses waits, with those after it, and is tried again shortly; its
    /// fault was logged once by the inbox's storage health.
    private func recordRested() async {
        while let (token, board, flaps) = unrecorded.first {
            do {
                try await inbox.markDisplayed(token, panel: panelID, board: board, now: time.now())
            } catch is StorageFault {
                retryRecord.yield()
                return
            } catch {
                logger.error("could not record display", metadata: ["panel": "\(panelID)", "error": "\(error)"])
            }
            unrecorded.removeFirst()
            logger.info("panel rested", metadata: ["panel": "\(panelID)", "message": "\(token ?? "-")", "flaps": "\(flaps)"])
            events?.yield(.displayed(panel: panelID, board: board, messageId: token, flaps: flaps))
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
            // Quiet hours go by the wall clock, so only when it can be trusted.
            let now = time.now()
            // The clock's trust (files, a system call) is asked only inside the span.
            let holding = quiet.map { $0.holds(at: now, zone: zone) && clockTrusted() } ?? false
            let quietChange = quiet?.nextChange(after: now, zone: zone)
            quietUntil = holding ? quietChange : nil
            if !holding { quietBoardShown = false }
            if pause?.isPaused == true, chosen?.bypassQuietHours != true {
                // Paused: nothing moves; what waits shows once it is switched off.
            } else if holding, chosen?.bypassQuietHours != true {
                if !quietBoardShown {
                    quietBoardShown = true
                    if let board = try await quietBoard() {
                        logger.info("quiet hours", metadata: ["panel": "\(panelID)", "until": "\(quietUntil?.formatted(.iso8601) ?? "?")"])
                        target = nil
                        targetBoard = board
                        shownSince = time.clock.now
                        try await motion.show(board, transition: nil, token: nil)
                    }
                }
            } else {
                // A message that bypasses quiet hours shows; when it has gone, the quiet board
                // (blank, a quick message) comes back rather than the bypass staying up all night.
                if holding { quietBoardShown = false }
                try await show(chosen)
            }
            try await armTimer(slots: slots.count, expiry: [soonestExpiry, quietChange].compactMap { $0 }.min())
        } catch is RefreshAgain {
            await refresh(rotationDue: rotationDue)
        } catch {
            logger.error("display refresh failed", metadata: ["panel": "\(panelID)", "error": "\(error)"])
        }
    }

    /// Moves the panel to `chosen` (blank when nil) if that changes what it shows.
    private func show(_ chosen: Message?) async throws {
        var board = Board(size: renderer.size, flap62: renderer.flap62)
        if let chosen {
            do {
                board = try renderer.board(for: chosen)
            } catch {
                // Checked on arrival against the first panel; this panel may be another size.
                try await inbox.reject(chosen.id, reason: "cannot be shown on panel \(panelID): \(error)", now: time.now())
                throw RefreshAgain()
            }
        }
        guard chosen?.id != target || board != targetBoard else { return }
        target = chosen?.id
        targetBoard = board
        shownSince = time.clock.now
        let transition = chosen?.transition.flatMap { request in
            try? Transition(
                strategy: request.strategy, stepSize: request.stepSize,
                stepIntervalMs: request.stepIntervalMs, seed: Self.seed(chosen?.id ?? ""))
        }
        try await motion.show(board, transition: transition, token: chosen?.id)
    }

    /// A message that could not be shown was rejected: choose again.
    private struct RefreshAgain: Error {}

    /// What the board shows when quiet hours start: nil to hold what it shows.
    private func quietBoard() async throws -> Board? {
        switch quiet?.action {
        case .blank?: return Board(size: renderer.size, flap62: renderer.flap62)
        case .message(let name)?:
            guard let template = try await inbox.template(name) else {
                logger.warning("quiet hours: no quick message of that name; holding instead", metadata: ["panel": "\(panelID)", "message": "\(name)"])
                return nil
            }
            do {
                let (message, _) = try MessageParser(boardSize: renderer.size, flap62: renderer.flap62, source: .quietHours).parse(
                    template.fields, now: time.now())
                return try renderer.board(for: message)
            } catch {
                logger.warning(
                    "quiet hours: the quick message cannot be shown; holding instead",
                    metadata: ["panel": "\(panelID)", "message": "\(name)", "error": "\(error)"])
                return nil
            }
        default: return nil
        }
    }

    /// Arms the wake-up for the next expiry, rotation or quiet-hours boundary (``Alarm`` keeps
    /// one armed no later than needed: waking early only means choosing again).
    private func armTimer(slots: Int, expiry: Date?) async throws {
        var deadline: C.Instant?
        if let expiry { deadline = time.instant(at: expiry) }
        if case .rotate(let every) = policy, slots > 1 {
            let turn = shownSince.advanced(by: every)
            if deadline.map({ turn < $0 }) ?? true { deadline = turn }
        }
        if quiet != nil {
            // Quiet hours go by the wall clock, which NTP may set far forward at any time (or
            // which becomes trusted): look at it at least once a minute.
            let minute = time.clock.now.advanced(by: .seconds(60))
            deadline = min(deadline ?? minute, minute)
        }
        guard let deadline else { return }
        await alarm.arm(deadline)
    }

    private func timerFired() async {
        var rotationDue = false
        if case .rotate(let every) = policy { rotationDue = time.clock.now >= shownSince.advanced(by: every) }
        await refresh(rotationDue: rotationDue)
    }

    static func seed(_ id: String) -> UInt64 {
        FNV1a.hash(id)
    }
}

import FlapCore
import FlapDisplay
import FlapHTTP
import FlapHardware
import FlapKiosk
import FlapMQTT
import FlapMessaging
import FlapMetrics
import FlapRooms
import FlapSimulated
import FlapTime
import FlapVestaboard
import FoundationEssentials
import Logging
import ServiceLifecycle
import Synchronization

/// One configured panel at run time: its driver, motion loop and coordinator, run as a service
/// that leaves the panel safe when flapd stops.
final class PanelRuntime: Service, Sendable {
    let configuration: PanelSettings
    let panel: any Panel
    let motion: MotionLoop<ContinuousClock>
    let coordinator: DisplayCoordinator<ContinuousClock>
    private let renderer: (TerminalRenderer, AsyncStream<PanelSnapshot>)?
    /// A simulated LED panel or screen, drawn in the terminal.
    private let ledTerminal: (LEDTerminalRenderer, any SimulatedPixelDevice)?
    /// The clacks: how loud plans are for the pages that play them, and the device that plays
    /// this panel's when it is the `speaker`'s.
    private let sound: ClackPlayer<ContinuousClock>?
    private let speaker: Bool
    private let metrics: FlapMetrics
    private let logger: Logger
    private let stopCompanion: @Sendable () async -> Void
    /// The plan playing and when it started, for the clack track to follow its revisions.
    private let lastStarted = PlayingPlan()
    /// The room, for a panel whose policy is `kiosk`.
    private let room: RoomService<ContinuousClock>?
    private let pixels: PixelSurface?
    /// The system library the hardware is reached through (GPIO's libgpiod), for status.
    private let library: String?
    /// A real Vestaboard's delivery workers (one a Note of an array).
    let deliveries: [BoardDelivery<ContinuousClock>]
    /// Each plan as it starts, for the clacks and for the pages watching (one stream each, so
    /// neither waits for the other).
    private let soundStarts: AsyncStream<(plan: FlipPlan, start: ContinuousClock.Instant)>
    private let pageStarts: AsyncStream<(plan: FlipPlan, wall: Date)>
    private let live: LiveBoards

    init(
        driver: PanelDriver, inbox: Inbox, metrics: FlapMetrics, drawInTerminal: Bool,
        sound: ClackPlayer<ContinuousClock>?, speaker: Bool, mqtt: MQTTBridge?, room: RoomService<ContinuousClock>?, live: LiveBoards,
        clockTrust: ClockTrust, pause: BoardPause, logger: Logger
    ) async throws {
        let configuration = driver.configuration
        let size = configuration.size ?? .flagship
        self.configuration = configuration
        self.sound = sound
        self.speaker = speaker
        self.metrics = metrics
        self.logger = logger
        stopCompanion = driver.stopCompanion
        pixels = driver.pixels
        library = driver.library
        deliveries = driver.deliveries
        for delivery in driver.deliveries {
            let id = configuration.id
            await delivery.observe { metrics.boardWrite(panel: id, state: $0.state.rawValue) }
        }
        if configuration.policy == .kiosk, room == nil {
            throw ServiceError(.configuration, "panel \(configuration.id): policy kiosk shows a Wematch room; join one with --room or [room]")
        }
        self.room = configuration.policy == .kiosk ? room : nil
        // Resume from what the panel showed when it last rested (a split-flap keeps its flaps).
        let saved = try await inbox.panelState(configuration.id)
        var showing: (board: Board, messageId: String?)?
        if driver.resumes, let saved, saved.codes.count == size.count {
            var board = Board(size: size, flap62: configuration.drum.flap62)
            for (i, code) in saved.codes.enumerated() { board[i / size.columns, i % size.columns] = code }
            showing = (board, saved.messageId)
        }
        panel = driver.panel
        if configuration.show == .terminal, drawInTerminal, let device = driver.ledDevice {
            ledTerminal = (LEDTerminalRenderer { text in StandardStreams.output(text) }, device)
        } else {
            ledTerminal = nil
        }
        switch (configuration.show, driver.snapshots) {
        case (.none, _), (_, nil):
            renderer = nil
        case (_, let snapshots?):
            let terminal = configuration.show == .terminal && drawInTerminal
            renderer = (TerminalRenderer(isTerminal: terminal) { text in StandardStreams.output(text) }, snapshots)
        }
        var planner = try FlipPlanner(
            drum: configuration.drum, motion: driver.panel.info.motion, flapPeriodMs: configuration.flapPeriodMs,
            transition: try Transition(strategy: configuration.transition))
        planner.time(by: await driver.panel.planTiming())
        let started = lastStarted
        let id = configuration.id
        self.live = live
        let (soundStarts, toSound) = AsyncStream.makeStream(of: (plan: FlipPlan, start: ContinuousClock.Instant).self)
        let (pageStarts, toPages) = AsyncStream.makeStream(of: (plan: FlipPlan, wall: Date).self)
        (self.soundStarts, self.pageStarts) = (soundStarts, pageStarts)
        let onPlanStart: @Sendable (FlipPlan, ContinuousClock.Instant) -> Void = { plan, start in
            started.value.withLock { $0 = (plan, start) }
            if sound != nil, speaker { toSound.yield((plan, start)) }
            // The plan's time zero on the wall clock, for pages that animate it.
            toPages.yield((plan, Date().addingTimeInterval(-(start.duration(to: .now) / .seconds(1)))))
        }
        motion = MotionLoop(panel: panel, planner: planner, clock: ContinuousClock(), onPlanStart: onPlanStart)
        coordinator = DisplayCoordinator(
            panelID: configuration.id, inbox: inbox, motion: motion, policy: configuration.policy, size: size,
            flap62: configuration.drum.flap62, time: .system, logger: logger, observer: ApplianceObserver(metrics: metrics, mqtt: mqtt, live: live),
            showing: showing,
            quiet: configuration.quiet, clockTrusted: { clockTrust.verdict().trusted }, pause: pause)
        let resting = await motion.restingBoard()
        await live.resting(panel: id, board: resting)
        // What the board shows from the start, for MQTT's state topic once connected.
        mqtt?.publishState(panel: id, board: resting, messageId: try? await inbox.panelState(id)?.messageId)
    }

    func run() async throws {
        await withDiscardingTaskGroup { group in
            group.addTask { [renderer, ledTerminal] in
                if let (renderer, snapshots) = renderer { await renderer.run(snapshots, clock: ContinuousClock()) }
                if let (renderer, device) = ledTerminal { await renderer.run(device, clock: ContinuousClock()) }
            }
            group.addTask { await self.reportHealth() }
            group.addTask { await self.followRevisions() }
            group.addTask { [sound, speaker, soundStarts] in
                guard let sound, speaker else { return }
                for await (plan, start) in soundStarts { await sound.play(plan, at: start) }
            }
            group.addTask { [live, pageStarts, sound, id = configuration.id] in
                for await (plan, wall) in pageStarts { await live.planStarted(panel: id, plan: plan, at: wall, volume: await sound?.loudness) }
            }
            await cancelWhenGracefulShutdown { await self.show() }
            // Shutting down: stop motion where it is, coils off, LEDs dark, sound stopped.
            await motion.stop()
            await panel.shutDown()
            await stopCompanion()
            if speaker { await sound?.stop() }
            group.cancelAll()
        }
    }

    /// Shows what the policy says until cancelled: messages, or the room (its plot on pixels,
    /// its summary in flaps).
    private func show() async {
        guard let room else { return await coordinator.run() }
        if let pixels {
            let player = KioskPlayer(
                width: pixels.width, height: pixels.height, monochrome: pixels.monochrome,
                framesPerSecond: pixels.framesPerSecond, clock: ContinuousClock(),
                plot: { await room.plot() }, show: pixels.present)
            await player.run()
        } else {
            let summary = RoomSummaryCoordinator(
                panelID: configuration.id, motion: motion, size: configuration.size ?? .flagship,
                clock: ContinuousClock(), logger: logger
            ) { await room.state() }
            await summary.run()
        }
    }

    /// The panel as the APIs report it.
    func view() async -> PanelView {
        let board = await motion.restingBoard()
        let health = await panel.health()
        var view = PanelView(
            id: configuration.id, driver: configuration.driver, drum: configuration.drum.name, board: board,
            moving: await motion.isMoving, messageId: await coordinator.target, connected: health.connected,
            faults: health.faults.map { PanelFault(row: $0.row, column: $0.column, fault: $0.kind.rawValue, rehomeAttempts: $0.attempts) })
        view.quietUntil = await coordinator.quietUntil
        view.library = library
        view.flaps = configuration.drum
        return view
    }

    /// The clacks move with landings the hardware showed to be early or late.
    private func followRevisions() async {
        guard let sound, speaker else { return }
        for await revision in await panel.revisions() {
            guard let playing = lastStarted.value.withLock({ $0 }), playing.plan == revision.original else { continue }
            await sound.play(revision.revised, at: playing.start)
        }
    }

    /// The driver's notices into the log (faults name the module's row and column), and its
    /// health into the metrics after each.
    private func reportHealth() async {
        var logger = logger
        logger[metadataKey: "panel"] = "\(configuration.id)"
        let health = await panel.health()
        metrics.panelHealth(panel: configuration.id, connected: health.connected, faults: health.faults.count)
        for await notice in await panel.notices() {
            switch notice.level {
            case .debug: logger.debug("\(notice.text)")
            case .info: logger.info("\(notice.text)")
            case .warning: logger.warning("\(notice.text)")
            case .error: logger.error("\(notice.text)")
            }
            let health = await panel.health()
            metrics.panelHealth(panel: configuration.id, connected: health.connected, faults: health.faults.count)
        }
    }
}

/// Feeds the display events into the metrics, and the board into MQTT's retained state.
struct ApplianceObserver: DisplayObserver {
    let metrics: FlapMetrics
    let mqtt: MQTTBridge?
    let live: LiveBoards
    func planStarted(panel: String, messageId: String?, flaps: Int) async { metrics.planStarted(messageId: messageId) }
    func displayed(panel: String, board: Board, messageId: String?, flaps: Int) async {
        metrics.displayed(messageId: messageId, panel: panel, flaps: flaps)
        await live.resting(panel: panel, board: board)
        mqtt?.publishState(panel: panel, board: board, messageId: messageId)
        if let messageId { await mqtt?.announceDisplayed(panel: panel, board: board, messageId: messageId) }
    }
}

/// The plan a panel plays and when it started.
final class PlayingPlan: Sendable {
    let value = Mutex<(plan: FlipPlan, start: ContinuousClock.Instant)?>(nil)
}

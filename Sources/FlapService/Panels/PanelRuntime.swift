import FlapCore
import FlapDisplay
import FlapHardware
import FlapMessaging
import FlapMetrics
import FlapPrimitives
import FlapTime
import FoundationEssentials
import Logging
import ServiceLifecycle
import Synchronization

/// One configured panel at run time: its driver, motion loop and coordinator, run as a service
/// that leaves the panel safe when flapd stops. What it does it publishes as ``PanelEvent``s;
/// what shows or counts them subscribes (``EventSubscriber``), and it knows none of them.
final class PanelRuntime: Service, Sendable {
    let configuration: PanelSettings
    let panel: any Panel
    let motion: MotionLoop<ApplianceClock>
    let coordinator: DisplayCoordinator<ApplianceClock>
    /// A simulated panel drawn in the terminal as it changes.
    private let drawing: (@Sendable () async -> Void)?
    /// The clacks: how loud plans are for the pages that play them, and the device that plays
    /// this panel's when it is the `speaker`'s.
    private let sound: ClackPlayer<ApplianceClock>?
    private let speaker: Bool
    private let metrics: FlapMetrics
    private let logger: Logger
    private let stopCompanion: @Sendable () async -> Void
    /// The plan playing and when it started, for the clack track to follow its revisions.
    private let lastStarted = PlayingPlan()
    /// What the panel shows instead of messages (the room, on a kiosk's).
    private let content: PanelContent?
    /// The setup code, shown in place of messages until the board is claimed.
    private let setup: SetupShow?
    /// On while the panel shows the setup code: the APIs then report it blank.
    let veil = PanelVeil()
    private let pixels: (any DrawsPixels)?
    /// The system library the hardware is reached through (GPIO's libgpiod), for status.
    let library: String?
    /// Each plan as it starts, for the clacks and for the pages watching (one stream each, so
    /// neither waits for the other).
    private let soundStarts: AsyncStream<(plan: FlipPlan, start: ApplianceClock.Instant)>
    private let pageStarts: AsyncStream<(plan: FlipPlan, wall: Date)>
    private let events: Watchers<PanelEvent>
    private let clock: ApplianceClock

    init(
        driver: PanelDriver, inbox: Inbox, metrics: FlapMetrics, drawInTerminal: Bool,
        sound: ClackPlayer<ApplianceClock>?, speaker: Bool, content: PanelContent?, setup: SetupShow?, events: Watchers<PanelEvent>,
        clockTrust: ClockTrust, pause: BoardPause, time: ApplianceTime, logger: Logger
    ) async throws {
        let configuration = driver.configuration
        let size = configuration.size ?? .flagship
        self.configuration = configuration
        self.sound = sound
        self.speaker = speaker
        self.metrics = metrics
        self.logger = logger
        stopCompanion = driver.stopCompanion
        pixels = driver.panel as? any DrawsPixels
        library = (driver.panel as? any ReachedThroughLibrary)?.systemLibrary
        self.content = content
        self.setup = setup
        self.events = events
        clock = time.clock
        // Resume from what the panel showed when it last rested (a split-flap keeps its flaps).
        let saved = try await inbox.panelState(configuration.id)
        var showing: (board: Board, messageId: String?)?
        if !(driver.panel is any StartsBlank), let saved, saved.codes.count == size.count {
            var board = Board(size: size, flap62: configuration.drum.flap62)
            for (i, code) in saved.codes.enumerated() { board[i / size.columns, i % size.columns] = code }
            showing = (board, saved.messageId)
        }
        panel = driver.panel
        drawing = driver.drawing(inTerminal: drawInTerminal)
        var planner = try FlipPlanner(
            drum: configuration.drum, motion: driver.panel.info.motion, flapPeriodMs: configuration.flapPeriodMs,
            transition: try Transition(strategy: configuration.transition))
        planner.time(by: await driver.panel.planTiming())
        let started = lastStarted
        let (soundStarts, toSound) = AsyncStream.makeStream(of: (plan: FlipPlan, start: ApplianceClock.Instant).self)
        let (pageStarts, toPages) = AsyncStream.makeStream(of: (plan: FlipPlan, wall: Date).self)
        (self.soundStarts, self.pageStarts) = (soundStarts, pageStarts)
        let onPlanStart: @Sendable (FlipPlan, ApplianceClock.Instant) -> Void = { plan, start in
            started.value.withLock { $0 = (plan, start) }
            if sound != nil, speaker { toSound.yield((plan, start)) }
            // The plan's time zero on the wall clock, for pages that animate it.
            toPages.yield((plan, time.now().addingTimeInterval(-(start.duration(to: time.clock.now) / .seconds(1)))))
        }
        motion = MotionLoop(panel: panel, planner: planner, clock: time.clock, onPlanStart: onPlanStart)
        coordinator = DisplayCoordinator(
            panelID: configuration.id, inbox: inbox, motion: motion, policy: configuration.policy, size: size,
            flap62: configuration.drum.flap62, time: time, logger: logger, events: events, showing: showing,
            quiet: configuration.quiet, clockTrusted: { clockTrust.verdict().trusted }, pause: pause)
        events.yield(.resting(panel: configuration.id, board: await motion.restingBoard(), messageId: saved?.messageId))
    }

    func run() async throws {
        await withDiscardingTaskGroup { group in
            group.addTask { [drawing] in await drawing?() }
            group.addTask { await self.reportHealth() }
            group.addTask { await self.followRevisions() }
            group.addTask { [sound, speaker, soundStarts] in
                guard let sound, speaker else { return }
                for await (plan, start) in soundStarts { await sound.play(plan, at: start) }
            }
            group.addTask { [events, pageStarts, sound, veil, id = configuration.id] in
                for await (plan, wall) in pageStarts where !veil.isOn {
                    events.yield(.planPlaying(panel: id, plan: plan, startedAt: wall, volume: await sound?.loudness))
                }
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

    /// Shows what the policy says until cancelled: messages, or what is shown instead.
    private func show() async {
        let stage = PanelStage(
            id: configuration.id, size: configuration.size ?? .flagship, motion: motion, clock: clock, pixels: pixels, logger: logger)
        await setup?.show(on: stage, veil: veil)
        guard let content else { return await coordinator.run() }
        await content(stage)
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

/// What a panel shows instead of messages (the room, on a kiosk's), on the panel it is given.
typealias PanelContent = @Sendable (PanelStage) async -> Void

/// A panel as what it shows is given it: its motion, and its pixels when it has them.
struct PanelStage: Sendable {
    let id: String
    let size: BoardSize
    let motion: MotionLoop<ApplianceClock>
    /// The clock its motion runs on.
    let clock: ApplianceClock
    let pixels: (any DrawsPixels)?
    let logger: Logger
}

/// The plan a panel plays and when it started.
final class PlayingPlan: Sendable {
    let value = Mutex<(plan: FlipPlan, start: ApplianceClock.Instant)?>(nil)
}

import FlapCore
import FlapHardware
import FlapHTTP
import FlapMessaging
import FlapMetrics
import FlapMQTT
import FlapSimulated
import Foundation
import Logging
import ServiceLifecycle

/// One configured panel at run time: its driver, motion loop and coordinator, run as a service
/// that leaves the panel safe when flapd stops.
final class PanelRuntime: Service, Sendable {
    let configuration: PanelConfiguration
    let panel: any Panel
    let motion: MotionLoop<ContinuousClock>
    let coordinator: DisplayCoordinator<ContinuousClock>
    private let renderer: (TerminalRenderer, AsyncStream<PanelSnapshot>)?
    private let sound: ClackPlayer<ContinuousClock>?

    init(configuration: PanelConfiguration, inbox: Inbox, metrics: FlapMetrics, drawInTerminal: Bool,
         sound: ClackPlayer<ContinuousClock>?, mqtt: MQTTBridge?, logger: Logger) async throws {
        self.configuration = configuration
        self.sound = sound
        // Resume from what the panel showed when it last rested (a split-flap keeps its flaps).
        let saved = try await inbox.panelState(configuration.id)
        var showing: (board: Board, messageId: String?)?
        var positions: [Int]?
        if let saved, saved.codes.count == configuration.size.count {
            var board = Board(size: configuration.size)
            for (i, code) in saved.codes.enumerated() { board[i / configuration.size.columns, i % configuration.size.columns] = code }
            showing = (board, saved.messageId)
            positions = saved.codes.map { configuration.drum.flap(for: $0).index }
        }
        let info = PanelInfo(id: configuration.id, size: configuration.size, drum: configuration.drum,
                             motion: .forwardOnly, driver: configuration.driver)
        let simulated = SimulatedPanel(info: info, clock: ContinuousClock(), positions: positions)
        panel = simulated
        switch configuration.show {
        case "none":
            renderer = nil
        default:
            let terminal = configuration.show == "terminal" && drawInTerminal
            renderer = (TerminalRenderer(isTerminal: terminal) { text in FileHandle.standardOutput.write(Data(text.utf8)) },
                        await simulated.snapshots())
        }
        let planner = try FlipPlanner(drum: configuration.drum, motion: .forwardOnly, flapPeriodMs: configuration.flapPeriodMs,
                                      transition: try Transition(strategy: configuration.transition))
        var onPlanStart: (@Sendable (FlipPlan, ContinuousClock.Instant) -> Void)?
        if let sound {
            onPlanStart = { plan, start in Task { await sound.play(plan, at: start) } }
        }
        motion = MotionLoop(panel: panel, planner: planner, clock: ContinuousClock(), onPlanStart: onPlanStart)
        coordinator = DisplayCoordinator(
            panelID: configuration.id, inbox: inbox, motion: motion, policy: configuration.policy, size: configuration.size,
            time: .system, logger: logger, observer: ApplianceObserver(metrics: metrics, mqtt: mqtt), showing: showing)
    }

    func run() async throws {
        let drawing = Task { [renderer] in
            if let (renderer, snapshots) = renderer { await renderer.run(snapshots, clock: ContinuousClock()) }
        }
        await cancelWhenGracefulShutdown { await self.coordinator.run() }
        // Shutting down: stop motion where it is, coils off, LEDs dark, sound stopped.
        await motion.stop()
        await sound?.stop()
        drawing.cancel()
    }

    /// The panel as the APIs report it.
    func view() async -> PanelView {
        let board = await motion.restingBoard()
        return PanelView(id: configuration.id, driver: configuration.driver, drum: configuration.drum.name, board: board,
                         moving: await motion.isMoving, messageId: await coordinator.target)
    }
}

/// Feeds the display events into the metrics, and the board into MQTT's retained state.
struct ApplianceObserver: DisplayObserver {
    let metrics: FlapMetrics
    let mqtt: MQTTBridge?
    func planStarted(panel: String, messageId: String?, flaps: Int) async { metrics.planStarted(messageId: messageId) }
    func displayed(panel: String, board: Board, messageId: String?, flaps: Int) async {
        metrics.displayed(messageId: messageId, panel: panel, flaps: flaps)
        mqtt?.publishState(panel: panel, board: board, messageId: messageId)
    }
}

import FlapClocks
import FlapCore
import FlapHardware
import FlapLinux
import FlapSimulated
import TestSupport

/// The real Chainlink driver at one end of a serial line, the simulated controller at the other.
/// ``inMemory(rows:columns:rotorSteps:prepare:)`` joins them with a simulated cable on an
/// ``EventClock`` (simulated time waits for every party, so a loaded machine changes nothing but
/// how long the test takes); ``overPseudoTerminal(rows:columns:)`` with a real pseudo-terminal
/// on the real clock, for the one test that the driver's bytes cross a real tty.
struct ChainlinkRig<C: Clock>: Sendable where C.Duration == Duration {
    let clock: C
    let controller: SimulatedChainlinkController<C>
    let link: ChainlinkLink<C>
    let panel: ChainlinkPanel<C>
    /// The host's end of the simulated cable, to write to the controller as a second host would.
    let host: SimulatedSerialPort<EventClock>?
    let size: BoardSize
    /// Runs `body` with simulated time free to move while it waits for something off the clock.
    let standingAside: @Sendable (@Sendable () async throws -> Void) async throws -> Void
    private let running: Task<Void, any Error>

    /// Rotors start just short of home unless `rotorSteps` says otherwise: homing is quick.
    static func inMemory(
        rows: Int, columns: Int, rotorSteps: [Int]? = nil,
        prepare: (SimulatedChainlinkController<EventClock>) async -> Void = { _ in }
    ) async throws -> ChainlinkRig<EventClock> {
        let clock = EventClock.drivenByCaller()
        let (host, device) = SimulatedSerialPort.pair(clock: clock, names: ("/dev/simulated-chainlink", "controller"))
        let controller = SimulatedChainlinkController(
            port: device, clock: clock, modules: rows * columns,
            rotorSteps: rotorSteps ?? Array(repeating: 2030, count: rows * columns))
        await prepare(controller)
        let running = clock.task { await controller.run() }
        // The link reopens its port after a failure: the cable is plugged in again.
        let link = ChainlinkLink(clock: clock) {
            host.reconnect(); return host
        }
        return try await ChainlinkRig<EventClock>.connect(
            clock: clock, controller: controller, link: link, host: host, path: host.name,
            size: BoardSize(rows: rows, columns: columns), running: running
        ) { body in
            try await clock.standingAside { try await body() }
        }
    }

    /// The controller behind a real pseudo-terminal, on the real clock.
    static func overPseudoTerminal(rows: Int, columns: Int) async throws -> ChainlinkRig<ContinuousClock> {
        let clock = ContinuousClock()
        let (device, path) = try LinuxSerialPort.pseudoTerminal()
        let controller = SimulatedChainlinkController(
            port: device, clock: clock, modules: rows * columns,
            rotorSteps: Array(repeating: 2030, count: rows * columns))
        let running = Task<Void, any Error> { await controller.run() }
        let link = ChainlinkLink(clock: clock) { try LinuxSerialPort(path: path, settings: .chainlink) }
        return try await ChainlinkRig<ContinuousClock>.connect(
            clock: clock, controller: controller, link: link, host: nil, path: path,
            size: BoardSize(rows: rows, columns: columns), running: running
        ) { try await $0() }
    }

    private static func connect(
        clock: C, controller: SimulatedChainlinkController<C>, link: ChainlinkLink<C>,
        host: SimulatedSerialPort<EventClock>?, path: String,
        size: BoardSize, running: Task<Void, any Error>,
        standingAside: @escaping @Sendable (@Sendable () async throws -> Void) async throws -> Void
    ) async throws -> ChainlinkRig {
        // Generous for the real clock: a loaded machine (browsers in the next suite) can stall the link for seconds.
        let discovery = try await ChainlinkPanel.discover(link: link, clock: clock, device: path, timeout: .seconds(240))
        let info = PanelInfo(id: "test", size: size, drum: discovery.drum ?? .chainlink52, motion: .forwardOnly, driver: "chainlink")
        let panel = ChainlinkPanel(info: info, link: link, clock: clock, device: path, positions: discovery.positions)
        await panel.start()
        return ChainlinkRig(
            clock: clock, controller: controller, link: link, panel: panel, host: host, size: size,
            standingAside: standingAside, running: running)
    }

    /// The planner this hardware calls for, timed as the panel says: the controller's motor
    /// model, starts grouped into commands.
    func planner(_ strategy: TransitionStrategy = .cascade) throws -> FlipPlanner {
        var planner = try FlipPlanner(drum: panel.info.drum, transition: try Transition(strategy: strategy))
        planner.time(by: panel.timing)
        return planner
    }

    /// Waits (on the rig's clock) until `condition` holds, or fails after `limit`.
    func wait(upTo limit: Duration, _ what: String, until condition: () async -> Bool) async throws {
        try await waitUntil(clock, upTo: limit, what, condition)
    }

    /// Waits until every module has found home and rests.
    func homed() async throws {
        try await wait(upTo: .seconds(60), "homing") {
            await (0..<size.count).asyncAll { i in
                let logic = await controller.module(i).logic
                return logic.state == .normal && !logic.isMoving
            }
        }
    }

    func plan(to text: String, strategy: TransitionStrategy = .cascade) async throws -> FlipPlan {
        let target = try Board(rows: TextLayout.encodeText(text, options: LayoutOptions(size: size)).rows)
        let motion = await panel.positions().map { ModuleMotion(position: $0) }
        return try planner(strategy).plan(from: motion, to: target)
    }

    func stop() async {
        try? await standingAside { [panel, running] in
            await panel.shutDown()
            running.cancel()
            _ = await running.result
        }
    }
}

struct RigError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

extension Sequence where Element: Sendable {
    func asyncAll(_ predicate: (Element) async -> Bool) async -> Bool {
        for element in self where !(await predicate(element)) { return false }
        return true
    }
}

extension FlipPlan {
    /// Each module's final drum index.
    var targets: [Int] { modules.map { $0.path.last! } }
}

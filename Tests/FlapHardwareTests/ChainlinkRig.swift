import FlapCore
import FlapHardware
import FlapLinux
import FlapSimulated

/// The real Chainlink driver on one side of a pseudo-terminal, the simulated controller on the
/// other, both on one accelerated clock.
struct ChainlinkRig {
    let clock: AcceleratedClock
    let controller: SimulatedChainlinkController<AcceleratedClock>
    let link: ChainlinkLink<AcceleratedClock>
    let panel: ChainlinkPanel<AcceleratedClock>
    let path: String
    let size: BoardSize
    private let running: Task<Void, Never>

    /// Rotors start just short of home unless `rotorSteps` says otherwise: homing is quick.
    static func make(rows: Int, columns: Int, speed: Int = 4, rotorSteps: [Int]? = nil,
                     prepare: (SimulatedChainlinkController<AcceleratedClock>) async -> Void = { _ in }) async throws -> ChainlinkRig {
        let clock = AcceleratedClock(factor: speed)
        let (device, path) = try LinuxSerialPort.pseudoTerminal()
        let controller = SimulatedChainlinkController(port: device, clock: clock, modules: rows * columns,
                                                      rotorSteps: rotorSteps ?? Array(repeating: 2030, count: rows * columns))
        await prepare(controller)
        let running = Task { await controller.run() }
        let link = ChainlinkLink(clock: clock) { try LinuxSerialPort(path: path, settings: .chainlink) }
        // Generous: the clock runs faster than real time, and a loaded machine (browsers in the next suite) can stall the link for seconds.
        let discovery = try await ChainlinkPanel.discover(link: link, clock: clock, device: path, timeout: .seconds(240))
        let size = BoardSize(rows: rows, columns: columns)
        let info = PanelInfo(id: "test", size: size, drum: discovery.drum ?? .chainlink52, motion: .forwardOnly, driver: "chainlink")
        let panel = ChainlinkPanel(info: info, link: link, clock: clock, device: path, positions: discovery.positions)
        await panel.start()
        return ChainlinkRig(clock: clock, controller: controller, link: link, panel: panel, path: path, size: size, running: running)
    }

    /// The planner this hardware calls for: the controller's motor model, starts grouped into commands.
    func planner(_ strategy: TransitionStrategy = .cascade) throws -> FlipPlanner {
        var planner = try FlipPlanner(drum: panel.info.drum, transition: try Transition(strategy: strategy))
        planner.stepper = panel.profile
        planner.commandInterval = ChainlinkPanel<AcceleratedClock>.commandInterval(modules: size.count)
        return planner
    }

    /// Waits (simulated time) until `condition` holds, or fails after `limit`.
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
        await panel.shutDown()
        running.cancel()
        await running.value
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

import FlapControl
import FlapCore
import FlapHardware
import FlapLinux
import FlapSimulated
import Foundation

/// `flapbench --hardware`: the split-flap drivers against their simulated hardware, in real
/// time. The Chainlink figure includes the real serial driver, a real pseudo-terminal and the
/// simulated controller's loop (it polls every 2 ms, as the firmware's serial task yields every
/// 1 ms); the jitter figure is the stepping thread's lateness on this machine, only indicative
/// of a Pi.
struct HardwareBench {
    let seconds: Double
    let output: StandardStream

    func run() async throws {
        try await commandToMotion()
        try await idleRead()
        try await stepJitter()
        output.flush()
    }

    /// Panel told to move one module → the controller has the config and wakes the motor.
    func commandToMotion() async throws {
        let clock = ContinuousClock()
        let (device, path) = try LinuxSerialPort.pseudoTerminal()
        let controller = SimulatedChainlinkController(port: device, clock: clock, modules: 12, rotorSteps: Array(repeating: 2040, count: 12))
        let running = Task { await controller.run() }
        defer { running.cancel() }
        let link = ChainlinkLink(clock: clock) { try LinuxSerialPort(path: path, settings: .chainlink) }
        let found = try await ChainlinkPanel.discover(link: link, clock: clock, device: path)
        let size = BoardSize(rows: 2, columns: 6)
        let panel = ChainlinkPanel(
            info: PanelInfo(id: "bench", size: size, drum: found.drum ?? .chainlink52, motion: .forwardOnly, driver: "chainlink"),
            link: link, clock: clock, device: path, positions: found.positions)
        await panel.start()
        // Shut down and awaited on every way out, so the panel's tasks end before the next measure.
        do {
            try await commandLatencies(panel: panel, controller: controller, clock: clock, size: size)
        } catch {
            await panel.shutDown()
            throw error
        }
        await panel.shutDown()
    }

    private func commandLatencies(
        panel: ChainlinkPanel<ContinuousClock>, controller: SimulatedChainlinkController<ContinuousClock>,
        clock: ContinuousClock, size: BoardSize
    ) async throws {
        while !(await homed(controller, modules: 12)) { try await Task.sleep(for: .milliseconds(20)) }
        var planner = try FlipPlanner(drum: panel.info.drum)
        planner.stepper = panel.profile
        planner.commandInterval = ChainlinkPanel<ContinuousClock>.commandInterval(modules: 12)
        var latencies: [Duration] = []
        let rounds = max(10, Int(seconds * 20))
        for round in 0..<rounds {
            var target = Board(size: size)
            target[0, round % 6] = (CharacterCode(1 + round % 26) ?? .blank)
            let plan = try planner.plan(from: await panel.positions().map { ModuleMotion(position: $0) }, to: target)
            let before = await controller.configs.count
            let start = clock.now
            let playing = Task { try await panel.play(plan, cutoff: PlayCutoff()) }
            while await controller.configs.count == before { try await Task.sleep(for: .microseconds(200)) }
            // From when the plan wanted the module started (its cascade offset) to the controller having it.
            let planned = plan.modules.first { $0.path.count > 1 }?.start ?? .zero
            latencies.append(start.advanced(by: planned).duration(to: await controller.configs[before].arrived))
            try await playing.value
        }
        latencies.sort()
        let frame = ChainlinkFrame.encode(ToSplitflap(nonce: 1, payload: .config(Array(repeating: .init(targetFlapIndex: 1), count: 12)))).count
        output.write(
            "Chainlink command → motor start (12 modules, \(frame)-byte frame, real pty, \(rounds) moves): p50 \(ms(latencies[latencies.count / 2])), p99 \(ms(latencies[latencies.count * 99 / 100])), max \(ms(latencies.last ?? .zero))\n"
        )
        output.write(
            "  (a 132-module frame: \(ms(ChainlinkPanel<ContinuousClock>.commandInterval(modules: 132))) between commands on the wire at 230400 baud)\n"
        )
    }

    /// A read waiting on a silent serial port: what the wait itself costs the process (it
    /// sleeps in the port's own thread's poll, so nearly nothing; polling every millisecond
    /// cost a wake-up each).
    func idleRead() async throws {
        let (device, path) = try LinuxSerialPort.pseudoTerminal()
        let port = try LinuxSerialPort(path: path, settings: .chainlink)
        let wait = Duration.seconds(max(2, seconds * 3))
        let before = ProcessUsage.now()
        let bytes = try await port.read(maximum: 64, timeout: wait)
        let after = ProcessUsage.now()
        await port.close()
        await device.close()
        let perSecond = Double(after.wakeUps - before.wakeUps) / (Double(wait.components.seconds) + Double(wait.components.attoseconds) / 1e18)
        output.write(
            "an idle serial read waiting \(wait) (\(bytes.count) bytes came): \(ms(after.cpu - before.cpu)) of CPU, \(String(format: "%.1f", perSecond)) context switches a second in the whole process\n"
        )
    }

    /// The stepping thread moving 24 modules non-stop: how late each step came.
    func stepJitter() async throws {
        let chain = SimulatedShiftRegisterChain(modules: 24, rotorSteps: Array(repeating: 2040, count: 24))
        let engine = SteppingEngine(io: ShiftRegisterChain(spi: chain, modules: 24), flaps: 52)
        let origin = ContinuousClock.now
        let thread = RealtimeSteppingThread(engine: engine, origin: origin)
        let refusal = thread.start()
        try await Task.sleep(for: .seconds(1.5))  // homing from just short of the magnet
        _ = engine.lateness(reset: true)
        let end = ContinuousClock.now + .seconds(seconds * 3)
        var flap = 0
        while ContinuousClock.now < end {
            flap = (flap + 26) % 52
            for m in 0..<24 { engine.go(m, to: (flap + m) % 52) }
            try await Task.sleep(for: .seconds(0.8))
        }
        let stats = engine.lateness()
        thread.stop()
        output.write(
            "stepping thread, 24 modules turning for \(Int(seconds * 3)) s (\(refusal == nil ? "real-time priority" : "normal priority: real-time refused here")): \(stats.count) steps late by mean \(us(stats.mean)), p99 \(us(stats.percentile(0.99))), max \(us(stats.maximum))\n"
        )
    }

    private func ms(_ d: Duration) -> String { String(format: "%.2f ms", Double(d / .microseconds(1)) / 1000) }
    private func us(_ d: Duration) -> String { String(format: "%.0f µs", Double(d / .nanoseconds(1)) / 1000) }

    private func homed(_ controller: SimulatedChainlinkController<ContinuousClock>, modules: Int) async -> Bool {
        for i in 0..<modules {
            let logic = await controller.module(i).logic
            if logic.state != .normal || logic.isMoving { return false }
        }
        return true
    }
}

/// The process's CPU time and voluntary context switches (a thread going to sleep), from getrusage.
struct ProcessUsage {
    var cpu: Duration
    var wakeUps: Int

    static func now() -> ProcessUsage {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func duration(_ t: timeval) -> Duration { .seconds(t.tv_sec) + .microseconds(t.tv_usec) }
        return ProcessUsage(cpu: duration(usage.ru_utime) + duration(usage.ru_stime), wakeUps: usage.ru_nvcsw)
    }
}

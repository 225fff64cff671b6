import FlapCore
import FlapHardware
import FlapLinux
import FlapSimulated
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(3))) struct DirectDriveLinuxTests {
    @Test func aMissingSPIDeviceSaysHowToEnableSPI() {
        #expect {
            _ = try LinuxSPIDevice(path: "/dev/spidev9.9")
        } throws: { error in
            (error as? HardwareError)?.description
                == "/dev/spidev9.9: cannot open: No such file or directory (enable SPI (dtparam=spi=on in /boot/firmware/config.txt) and reboot)"
        }
        // A file that is not a spidev device is refused at configuration, not at the first step.
        #expect(throws: HardwareError.self) { _ = try LinuxSPIDevice(path: "/dev/null") }
    }

    @Test func theSteppingThreadDrivesTheChainInRealTime() async throws {
        let chain = SimulatedShiftRegisterChain(modules: 4, rotorSteps: Array(repeating: 2040, count: 4))
        let engine = SteppingEngine(io: ShiftRegisterChain(spi: chain, modules: 4), flaps: 52)
        let origin = ContinuousClock.now
        let thread = RealtimeSteppingThread(engine: engine, origin: origin)
        let refusal = thread.start()
        defer { thread.stop() }
        // Granted (as root on a real system) or refused with the reason (as in this container).
        if let refusal { #expect(refusal.hasPrefix("real-time priority refused")) }
        let panel = DirectDrivePanel(
            info: PanelInfo(id: "t", size: BoardSize(rows: 1, columns: 4), drum: .chainlink52, motion: .forwardOnly, driver: "spi"),
            engine: engine, clock: ContinuousClock(), origin: origin)
        _ = try await eventually(every: .milliseconds(20)) {
            engine.modules().allSatisfy { $0.state == .normal && !$0.isMoving && $0.acceleration == 0 }
        }
        var planner = try FlipPlanner(drum: .chainlink52)
        planner.stepper = engine.profile
        let target = try Board(rows: [[CharacterCode(1)!, CharacterCode(2)!, CharacterCode(3)!, CharacterCode(4)!]])
        let plan = try planner.plan(from: Board(size: target.size), to: target)
        try await panel.play(plan, cutoff: PlayCutoff())
        #expect((0..<4).map { engine.profile.flap(atStep: chain.mechanism($0).rotorStep) } == [1, 2, 3, 4])
        #expect(engine.lateness().count > 100)
        await panel.shutDown()
    }

    @Test func whenRealTimePriorityIsRefusedTheThreadStepsAnywayAndSaysWhy() async throws {
        // No SCHED_FIFO priority 1000 exists anywhere: refused as a Pi without CAP_SYS_NICE refuses.
        let chain = SimulatedShiftRegisterChain(modules: 1, rotorSteps: [2040])
        let engine = SteppingEngine(io: ShiftRegisterChain(spi: chain, modules: 1), flaps: 52)
        let thread = RealtimeSteppingThread(engine: engine, origin: ContinuousClock.now, priority: 1000)
        let refusal = try #require(thread.start())
        defer { thread.stop() }
        #expect(refusal.hasPrefix("real-time priority refused (Invalid argument); stepping at normal priority"))
        // Homing proves the thread steps all the same.
        #expect(try await eventually(every: .milliseconds(10)) { engine.modules()[0].state == .normal })
        #expect(chain.mechanism(0).stepsTurned > 0)
    }
}

import FlapClocks
import FlapCore
import FlapHardware
import FlapSimulated
import TestSupport
import Testing

/// The direct-drive panel and stepping engine against simulated Chainlink Driver boards behind a
/// simulated SPI device, in simulated time that waits for every party (``EventClock``): a busy
/// machine makes these tests slower, never different.
@Suite(.cleansUp, .serialized, .timeLimit(.minutes(2))) struct DirectDrivePanelTests {
    struct Rig {
        let clock = EventClock.drivenByCaller()
        let chain: SimulatedShiftRegisterChain
        let engine: SteppingEngine
        let panel: DirectDrivePanel<EventClock>
        let size: BoardSize
        let runner: Task<Void, any Error>
        /// Engine time zero.
        let origin: EventClock.Instant

        init(rows: Int, columns: Int, rotorSteps: [Int]? = nil) async {
            size = BoardSize(rows: rows, columns: columns)
            chain = SimulatedShiftRegisterChain(modules: size.count, rotorSteps: rotorSteps ?? Array(repeating: 2030, count: size.count))
            engine = SteppingEngine(io: ShiftRegisterChain(spi: chain, modules: size.count), flaps: 52)
            let origin = clock.now
            self.origin = origin
            panel = DirectDrivePanel(
                info: PanelInfo(id: "t", size: size, drum: .chainlink52, motion: .forwardOnly, driver: "spi"),
                engine: engine, clock: clock, origin: origin)
            runner = clock.task { [engine, clock] in await ClockSteppingRunner.run(engine, clock: clock, origin: origin) }
            await panel.start()
        }

        func wait(upTo limit: Duration, _ what: String, until condition: () async -> Bool) async throws {
            try await waitUntil(clock, upTo: limit, what, condition)
        }

        func homed() async throws {
            try await wait(upTo: .seconds(60), "homing") {
                engine.modules().allSatisfy { $0.state == .normal && !$0.isMoving && $0.acceleration == 0 }
            }
        }

        func plan(to text: String) async throws -> FlipPlan {
            var planner = try FlipPlanner(drum: .chainlink52)
            planner.stepper = engine.profile
            let target = try Board(rows: TextLayout.encodeText(text, options: LayoutOptions(size: size)).rows)
            return try planner.plan(from: await panel.positions().map { ModuleMotion(position: $0) }, to: target)
        }

        /// Where each rotor is, as flaps (flap 0 at the magnet).
        var rotorFlaps: [Int] { (0..<size.count).map { engine.profile.flap(atStep: chain.mechanism($0).rotorStep) } }

        func stop() async {
            await clock.standingAside {
                runner.cancel()
                _ = await runner.result
                await panel.shutDown()
            }
        }
    }

    @Test func theChainLayoutPutsEachModuleWhereTheBoardsWireIt() {
        let chain = ShiftRegisterChain(spi: SimulatedShiftRegisterChain(modules: 8), modules: 8)
        // Two boards: eight bytes out, farthest register first.
        #expect(chain.frame(coils: [0xC, 0x6, 0x3, 0x9, 0xC, 0x6, 0x3, 0x9]) == [0, 0, 0, 0x93, 0x6C, 0x90, 0x03, 0x6C])
        #expect(chain.sensors(in: [0b1100_0101, 0b1100_0010, 0, 0, 0, 0, 0, 0]) == [true, false, true, false, false, false, false, true])
    }

    @Test func aBoardChangeLandsEveryRotorOnItsFlapAndReleasesTheCoils() async throws {
        let rig = await Rig(rows: 2, columns: 6, rotorSteps: (0..<12).map { $0 * 170 })
        teardown { await rig.stop() }
        try await rig.homed()
        let plan = try await rig.plan(to: "DIRECT\nDRIVE!")
        let started = rig.clock.now
        try await rig.panel.play(plan, cutoff: PlayCutoff())
        let took = started.duration(to: rig.clock.now)
        #expect(rig.rotorFlaps == plan.targets)
        #expect(await rig.panel.positions() == plan.targets)
        #expect(took >= plan.duration, "took \(took), planned \(plan.duration)")
        #expect((0..<12).allSatisfy { rig.chain.mechanism($0).coils == 0 }, "coils released at rest")
        let lateness = rig.engine.lateness()
        #expect(lateness.count > 1000)
    }

    @Test func aForcedFullTurnAndAModuleLeftAloneAtOnce() async throws {
        let rig = await Rig(rows: 1, columns: 3)
        teardown { await rig.stop() }
        try await rig.homed()
        let first = try await rig.plan(to: "ABC")
        try await rig.panel.play(first, cutoff: PlayCutoff())
        let before = (0..<3).map { rig.chain.mechanism($0).stepsTurned }
        var plan = try await rig.plan(to: "ABC")
        let b = plan.modules[1].path[0]
        plan.modules[1].path = (0...52).map { (b + $0) % 52 }
        plan.modules[1].landings = rig.engine.profile.landings(from: b, flaps: 52)
        try await rig.panel.play(plan, cutoff: PlayCutoff())
        #expect((0..<3).map { rig.chain.mechanism($0).stepsTurned - before[$0] } == [0, 2048, 0])
        #expect(rig.rotorFlaps == first.targets)
    }

    @Test func aSensorThatNeverFiresIsAFaultThatReHomingClears() async throws {
        let rig = await Rig(rows: 1, columns: 4)
        teardown { await rig.stop() }
        rig.chain.setSensorFault(.neverFires, module: 2)
        try await rig.wait(upTo: .seconds(30), "the sensor error") { await !rig.panel.health().faults.isEmpty }
        #expect(await rig.panel.health().faults == [ModuleFault(row: 1, column: 3, kind: .sensorError)])
        let plan = try await rig.plan(to: "WXYZ")
        try await rig.panel.play(plan, cutoff: PlayCutoff())
        #expect(rig.rotorFlaps.enumerated().filter { $0.offset != 2 }.map(\.element) == [plan.targets[0], plan.targets[1], plan.targets[3]])
        rig.chain.setSensorFault(.none, module: 2)
        // The next re-homing comes after the backoff the failed attempts so far have reached, then a turn to home.
        let attempts = await rig.panel.health().faults.first?.attempts ?? 0
        typealias Watch = ModuleFaultWatch<EventClock.Instant>
        let backoff = min(Watch.firstRehomeDelay * (1 << min(attempts + 1, 10)), Watch.rehomeBackoffLimit)
        try await rig.wait(upTo: backoff + .seconds(30), "the recovery") {
            await rig.panel.health().faults.isEmpty && rig.rotorFlaps == plan.targets
        }
    }

    @Test func lostStepsAreCaughtAtHomeAndTheModuleStillArrives() async throws {
        let rig = await Rig(rows: 1, columns: 2)
        teardown { await rig.stop() }
        try await rig.homed()
        let notices = await rig.panel.notices()
        rig.chain.setLostSteps(every: 15, module: 0)
        // Two trips past home: the lost steps show as a home edge out of place.
        for text in ["Z0", "M1"] {
            try await rig.panel.play(try await rig.plan(to: text), cutoff: PlayCutoff())
        }
        // Mended, the next pass over home puts the count right again (re-homing if it is off).
        rig.chain.setLostSteps(every: nil, module: 0)
        try await rig.panel.play(try await rig.plan(to: "Z0"), cutoff: PlayCutoff())
        let plan = try await rig.plan(to: "OK")
        try await rig.panel.play(plan, cutoff: PlayCutoff())
        try await rig.wait(upTo: .seconds(30), "the module to settle") { rig.rotorFlaps == plan.targets }
        var said: [String] = []
        for await notice in notices {
            said.append(notice.text)
            if notice.text.contains("re-homes") { break }
        }
        #expect(said.contains { $0.contains("row 1, column 1") && ($0.contains("missed-home") || $0.contains("unexpected-home")) })
    }

    @Test func modulesOnGPIOLinesThroughULN2003BoardsMoveTheSameWay() async throws {
        let clock = EventClock.drivenByCaller()
        let board = SimulatedCoilBoard(modules: 2)
        let engine = SteppingEngine(io: CoilLines(lines: board, modules: 2), flaps: 52)
        let origin = clock.now
        let runner = clock.task { await ClockSteppingRunner.run(engine, clock: clock, origin: origin) }
        defer { runner.cancel() }
        let panel = DirectDrivePanel(
            info: PanelInfo(id: "g", size: BoardSize(rows: 1, columns: 2), drum: .chainlink52, motion: .forwardOnly, driver: "gpio"),
            engine: engine, clock: clock, origin: origin)
        while !engine.modules().allSatisfy({ $0.state == .normal && !$0.isMoving && $0.acceleration == 0 }) {
            try await clock.sleep(for: .milliseconds(20), tolerance: nil)
        }
        var planner = try FlipPlanner(drum: .chainlink52)
        planner.stepper = engine.profile
        let target = try Board(rows: [[CharacterCode(8)!, CharacterCode(9)!]])
        try await panel.play(try planner.plan(from: Board(size: target.size), to: target), cutoff: PlayCutoff())
        #expect((0..<2).map { engine.profile.flap(atStep: board.mechanism($0).rotorStep) } == [8, 9])
        await panel.shutDown()
        #expect(throws: HardwareError.self) { try board.get() }
    }

    @Test func aCascadeStartsEachModuleAtItsPlannedTimeInOrder() async throws {
        let rig = await Rig(rows: 2, columns: 4)
        teardown { await rig.stop() }
        try await rig.homed()
        let plan = try await rig.plan(to: "ABCD\nEFGH")
        let playStart = rig.origin.duration(to: rig.clock.now)
        try await rig.panel.play(plan, cutoff: PlayCutoff())
        let starts = rig.engine.starts()
        for a in plan.modules.indices {
            let started = try #require(starts[a]) - playStart
            #expect(started >= plan.modules[a].start, "module \(a) started \(started), planned \(plan.modules[a].start)")
            for b in plan.modules.indices where plan.modules[b].start > plan.modules[a].start {
                #expect(try #require(starts[b]) >= starts[a]!, "module \(b) started before module \(a)")
            }
        }
        #expect(Set(plan.modules.map(\.start)).count == 8, "a cascade: every module its own start")
        #expect(rig.rotorFlaps == plan.targets)
    }

    @Test func aFailingBusIsReportedAndTheBoardCarriesOnWhenItWorksAgain() async throws {
        let rig = await Rig(rows: 1, columns: 3)
        teardown { await rig.stop() }
        try await rig.homed()
        rig.chain.setFailing(true)
        try await rig.wait(upTo: .seconds(10), "the failure to show") { await !rig.panel.health().connected }
        rig.chain.setFailing(false)
        try await rig.wait(upTo: .seconds(10), "the recovery") { await rig.panel.health().connected }
        let plan = try await rig.plan(to: "BUS")
        try await rig.panel.play(plan, cutoff: PlayCutoff())
        #expect(rig.rotorFlaps == plan.targets)
    }
}

import FlapClocks
import FlapCore
import FlapHardware
import FlapSimulated
import TestSupport
import Testing

/// An SBB/annax wall against the twin, in simulated time: flapd starts from the blades the
/// modules say, a message lands when its plan says, and a module that lands elsewhere twice is a
/// fault reported as what it says.
@Suite(.cleansUp, .serialized, .timeLimit(.minutes(2))) struct SBBPanelTests {
    /// Letters and digits, and a destination between them (blade 27).
    static let blades = try! SBBBlades(" ABCDEFGHIJKLMNOPQRSTUVWXYZ*0123456789").labelled(
        (0..<38).map { $0 == 27 ? "Zürich HB" : "" })

    struct Rig {
        let clock: EventClock
        let twin: SimulatedSBBBus<EventClock>
        let bus: SBBBus<EventClock>
        let panel: SBBPanel<EventClock>
        let origin: EventClock.Instant
        let running: Task<Void, any Error>

        static func make(
            addresses: [Int], onTheBus: [Int]? = nil, bladeTime: Duration = SimulatedSBBModule.defaultBladeTime,
            before: (SBBBus<EventClock>, EventClock) async throws -> Void = { _, _ in }
        ) async throws -> Rig {
            let clock = EventClock.drivenByCaller()
            let (host, device) = SimulatedSerialPort.pair(clock: clock, settings: SBBLine.settings, names: ("/dev/ttyUSB-sbb", "bus"))
            let modules = (onTheBus ?? addresses).enumerated().map { n, address in
                SimulatedSBBModule(address: address, serial: UInt32(5000 + n), blades: SBBPanelTests.blades.count, bladeTime: bladeTime)
            }
            let twin = SimulatedSBBBus(port: device, clock: clock, modules: modules)
            let origin = clock.now
            let running = clock.task { await twin.run() }
            let bus = SBBBus(device: host.name, clock: clock) { host }
            try await before(bus, clock)
            let info = PanelInfo(
                id: "station", size: BoardSize(rows: 1, columns: addresses.count), drum: SBBPanelTests.blades.drum, motion: .forwardOnly,
                driver: "sbb")
            let panel = SBBPanel(info: info, bus: bus, clock: clock, addresses: addresses, blades: SBBPanelTests.blades)
            await panel.start()
            return Rig(clock: clock, twin: twin, bus: bus, panel: panel, origin: origin, running: running)
        }

        func plan(to text: String) async throws -> FlipPlan {
            var planner = try FlipPlanner(drum: panel.info.drum)
            planner.time(by: await panel.planTiming())
            let target = try Board(rows: TextLayout.encodeText(text, options: LayoutOptions(size: panel.info.size)).rows)
            return try planner.plan(from: await panel.positions().map { ModuleMotion(position: $0) }, to: target)
        }

        /// The drum flap each module's blade shows.
        func shown() async -> [Int] { await twin.positions().map(SBBPanelTests.blades.drumFlap(atBlade:)) }

        func stop() async {
            try? await clock.standingAside {
                await panel.shutDown()
                running.cancel()
                _ = await running.result
            }
        }
    }

    @Test func flapdStartsFromTheBladesTheModulesSay() async throws {
        let rig = try await Rig.make(addresses: [4, 5, 6]) { bus, clock in
            try await bus.send(.show(8), to: 5)
            try await bus.send(.show(30), to: 6)
            try await clock.sleep(for: SimulatedSBBModule.defaultBladeTime * 31)
        }
        teardown { await rig.stop() }
        // Blade 30 is "2" (blade 27 shows no character).
        #expect(await rig.panel.positions() == [0, 8, 29])
        let plan = try await rig.plan(to: "AHX")
        #expect(plan.modules[1].path.count == 1 && plan.modules[2].path.count > 1, "the module showing H is not moved")
    }

    @Test func aMessageLandsWhenItsPlanSaysAndIsReadBack() async throws {
        let rig = try await Rig.make(addresses: [10, 11, 12, 13])
        teardown { await rig.stop() }
        let plan = try await rig.plan(to: "GO 9")
        let started = rig.clock.now
        try await rig.panel.play(plan, cutoff: PlayCutoff())
        #expect(await rig.shown() == plan.targets)
        #expect(await rig.panel.positions() == plan.targets)
        #expect(await rig.panel.health() == PanelHealth())
        // Each module's last blade fell when its plan said, within a blade's time.
        for (i, module) in plan.modules.enumerated() where module.path.count > 1 {
            let landed = try #require(await rig.twin.module(i).landings.last).at
            let planned = rig.origin.duration(to: started) + module.end
            #expect(abs((landed - planned) / .milliseconds(1)) < 10, "module \(i): landed \(landed), planned \(planned)")
        }
    }

    @Test func aModuleThatLandsElsewhereTwiceIsAFaultReportedAsItSays() async throws {
        let rig = try await Rig.make(addresses: [1, 2, 3])
        teardown { await rig.stop() }
        await rig.twin.wear(module: 1, overshoot: 1)
        let plan = try await rig.plan(to: "ABC")
        try await rig.panel.play(plan, cutoff: PlayCutoff())
        let faults = await rig.panel.health().faults
        #expect(faults.map { "\($0.row),\($0.column),\($0.kind)" } == ["1,2,landedElsewhere"], "\(faults)")
        #expect(faults.first?.said?.hasPrefix("it shows blade 3 (\"C\") where it was sent blade 2 (\"B\"), twice") == true, "\(faults)")
        #expect(await rig.panel.positions() == [1, 3, 3], "flapd reports the C the module shows")
        // Mended, the next board lands it and the fault goes.
        await rig.twin.wear(module: 1, overshoot: 0)
        let next = try await rig.plan(to: "XYZ")
        try await rig.panel.play(next, cutoff: PlayCutoff())
        #expect(await rig.shown() == next.targets)
        #expect(await rig.panel.health().faults.isEmpty)
    }

    @Test func aModuleSlowerThanConfiguredIsWaitedForNotFaulted() async throws {
        let rig = try await Rig.make(addresses: [1, 2], bladeTime: .milliseconds(160))
        teardown { await rig.stop() }
        let plan = try await rig.plan(to: "ZY")
        try await rig.panel.play(plan, cutoff: PlayCutoff())
        #expect(await rig.shown() == plan.targets, "each module asked again until it rests")
        #expect(await rig.panel.health().faults.isEmpty)
        #expect(await rig.panel.positions() == plan.targets)
    }

    @Test func aModuleTakesItsCommandsAndFlapdFollowsWhereItTurns() async throws {
        let rig = try await Rig.make(addresses: [21, 22])
        teardown { await rig.stop() }
        let about = try await rig.panel.send(ModuleCommandCall("about"), row: 1, column: 2)
        #expect(about.measured == ["blade": 0, "serial": 5001, "version": SimulatedSBBModule.version, "type": 0] && about.id == 22, "\(about)")
        var show = ModuleCommandCall("show")
        show.values["blade"] = .number(8)
        let shown = try await rig.panel.send(show, row: 1, column: 1)
        #expect(shown.sent == "FF C0 15 08" && shown.measured == ["blade": 8])
        #expect(await rig.panel.positions() == [8, 0], "flapd starts the next board from H")
        show.values["blade"] = .number(38)
        await #expect(throws: ModuleCommandError.invalid("show needs blade, one of this module's 0 to 37")) {
            try await rig.panel.send(show, row: 1, column: 1)
        }
        var move = ModuleCommandCall("address")
        move.values["address"] = .number(21)
        await #expect(throws: ModuleCommandError.invalid("address 21 is the module's at row 1, column 1")) {
            try await rig.panel.send(move, row: 1, column: 2)
        }
        move.values["address"] = .number(40)
        let moved = try await rig.panel.send(move, row: 1, column: 2)
        #expect(moved.id == 40 && moved.note?.contains("addresses in flapd.toml") == true)
        #expect(await rig.panel.addresses == [21, 40])
        #expect(await rig.twin.module(1).address == 40)
        let home = try await rig.panel.send(ModuleCommandCall("home"), row: 1, column: 1)
        #expect(home.measured == ["blade": 0])
        #expect(await rig.panel.positions() == [0, 0])
        await #expect(throws: ModuleCommandError.offTheBoard(rows: 1, columns: 2)) {
            try await rig.panel.send(ModuleCommandCall("home"), row: 2, column: 1)
        }
    }

    @Test func modulesAreFoundByAskingEachAddressOfTheRangeGiven() async throws {
        let rig = try await Rig.make(addresses: [3, 9], onTheBus: [3, 7])
        teardown { await rig.stop() }
        #expect(await rig.panel.moduleSearch() == nil)
        let search = try await rig.panel.findModules(first: 0, last: 10)
        #expect(search.asked == 11 && search.done && search.problem == nil)
        #expect(search.found == [FoundModule(address: 3, serial: 5000, row: 1, column: 1), FoundModule(address: 7, serial: 5001)])
        #expect(search.silent == [SilentPlace(address: 9, row: 1, column: 2)], "the place configured at 9 has no module")
        #expect(await rig.panel.moduleSearch() == search)
        await #expect(throws: ModuleCommandError.invalid("addresses run 0 to 255, the first no later than the last; not 9 to 3")) {
            try await rig.panel.findModules(first: 9, last: 3)
        }
    }

    @Test func bladesAreShownByLabelOrIndexAndTheNextBoardTurnsOnFromThere() async throws {
        let rig = try await Rig.make(addresses: [1, 2, 3])
        teardown { await rig.stop() }
        #expect(SBBPanelTests.blades.blade(labelled: "ZÜRICH HB") == 27 && SBBPanelTests.blades.blade(labelled: "b") == 2)
        let shown = try await rig.panel.show(blades: [.label("zürich hb"), .index(30), nil])
        #expect(shown == [27, 30, 0])
        #expect(await rig.twin.positions() == [27, 30, 0])
        await #expect(
            throws: ModuleCommandError.invalid(
                "row 1, column 3: no blade is labelled \"Bern\" (the labels: A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q, R, S, T, U, V, W, X, Y, Z, Zürich HB, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9)"
            )
        ) {
            try await rig.panel.show(blades: [nil, nil, .label("Bern")])
        }
        await #expect(throws: ModuleCommandError.invalid("row 1, column 1: blade 38 is not one of the module's 0 to 37")) {
            try await rig.panel.show(blades: [.index(38), nil, nil])
        }
        // A text message turns the destination's module on from where it truly is.
        let plan = try await rig.plan(to: "AB1")
        try await rig.panel.play(plan, cutoff: PlayCutoff())
        #expect(await rig.twin.positions() == [1, 2, 29])
        #expect(await rig.panel.health().faults.isEmpty)
    }
}

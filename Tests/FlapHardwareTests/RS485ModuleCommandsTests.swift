import FlapClocks
import FlapCore
import FlapHardware
import FlapSimulated
import TestSupport
import Testing

/// An RS-485 wall has the module-commands capability: asked for as a capability, never by its
/// type, it takes the owner's commands by row and column and answers in the owner's terms.
@Suite(.cleansUp, .serialized, .timeLimit(.minutes(2))) struct RS485ModuleCommandsTests {
    @Test func theWallTakesModuleCommandsByRowAndColumn() async throws {
        let rig = await RS485PanelTests.Rig.make(rows: 2, columns: 2)
        teardown { await rig.stop() }
        try await rig.panel.homed()
        let panel: any Panel = rig.panel
        let modules = try #require(panel as? any TakesModuleCommands)
        #expect(modules.moduleCommands.map(\.synopsis).contains("store FLAP STEPS"))
        let stored = try await modules.send(ModuleCommandCall("store", ["flap": .character("A"), "steps": .number(321)]), row: 2, column: 1)
        #expect(stored.panel == "wall" && stored.id == 3 && stored.sent.hasPrefix("m03w"))
        let dump = try await modules.send(ModuleCommandCall("dump"), row: 2, column: 1)
        #expect(dump.positions == ["A": 321] && dump.steps == 4096, "\(dump)")
        await #expect(throws: ModuleCommandError.offTheBoard(rows: 2, columns: 2)) {
            try await modules.send(ModuleCommandCall("home"), row: 3, column: 1)
        }
        let foreign = ModuleCommandCall("store", ["flap": .character("é"), "steps": .number(1)])
        await #expect(throws: ModuleCommandError.self) { try await modules.send(foreign, row: 1, column: 1) }
        await #expect(throws: ModuleCommandError.invalid("a nudge is 1 to 4095 for this module, not 1000000")) {
            try await modules.send(ModuleCommandCall("nudge", ["steps": .number(1_000_000)]), row: 1, column: 1)
        }
        await #expect(throws: ModuleCommandError.self) { try await modules.send(ModuleCommandCall("spin"), row: 1, column: 1) }
    }

    /// Universal Firmware's modules test themselves; what a test finds wrong is said in a
    /// household's words for the module's row and column, and a module found well has nothing said.
    @Test func aModuleTestsItselfAndSaysWhatIsWrong() async throws {
        let rig = await RS485PanelTests.Rig.make(rows: 1, columns: 3, serials: ["5657000A", "5657000B", "5657000C"])
        teardown { await rig.stop() }
        var deaf = SimulatedRS485Module.Faults()
        deaf.hall = 2
        deaf.millivolts = 4_310
        deaf.resetCause = 2
        await rig.bus.inject(deaf, module: 2)
        var slipping = SimulatedRS485Module.Faults()
        slipping.missedSteps = 400
        await rig.bus.inject(slipping, module: 3)
        try await rig.panel.homed()
        let modules = try #require(rig.panel as any Panel as? any TakesModuleCommands)

        let well = try await modules.send(ModuleCommandCall("hall-test"), row: 1, column: 1)
        #expect(well.sent == "m01T" && well.findings == [] && well.measured?["magnetPassings"] == 1, "\(well)")
        let hall = try await modules.send(ModuleCommandCall("hall-test"), row: 1, column: 2)
        #expect(hall.findings == ["the magnet is not seen: check the Hall sensor's wiring, and that the magnet is on the reel"], "\(hall)")
        let health = try await modules.send(ModuleCommandCall("diagnostics"), row: 1, column: 2)
        #expect(health.measured?["supplyMillivolts"] == 4_310, "\(health)")
        #expect(health.findings?.first == "its supply is low (4.31 V): check the power wiring and the supply's size", "\(health)")
        #expect(health.findings?.contains { $0.contains("brown-out") } == true)
        let motor = try await modules.send(ModuleCommandCall("motor-test", ["turns": .number(5)]), row: 1, column: 3)
        #expect(motor.sent == "m03M5" && motor.measured?["fewestSteps"] == 3_696, "\(motor)")
        #expect(motor.findings?.first?.hasPrefix("its turns differ by 10.2 % (3696 to 4096 steps)") == true, "\(motor)")
        await #expect(throws: ModuleCommandError.invalid("a motor test's turns is 5 to 20 for this module, not 50")) {
            try await modules.send(ModuleCommandCall("motor-test", ["turns": .number(50)]), row: 1, column: 1)
        }
        // What they found is the wall's health, by row and column, as the status page shows it.
        let faults = await rig.panel.health().faults
        #expect(faults.map { "\($0.row),\($0.column)" } == ["1,2", "1,3"] && faults.allSatisfy { $0.kind == .foundByItsTest }, "\(faults)")
        #expect(faults.first?.said?.contains("the magnet is not seen") == true && faults.first?.said?.contains("supply is low") == true)
        // The tests leave each module home, where flapd believes it: a board still shows right.
        let plan = try await rig.plan(to: "ABC")
        try await rig.panel.play(plan, cutoff: PlayCutoff())
        #expect(await rig.shown() == plan.targets.map(Optional.some))
    }

    /// Firmware v7 knows no test: asked once for its version, the module is silent, and the test
    /// is refused with the reason, never sent.
    @Test func aV7ModuleIsNotAskedForATestItDoesNotKnow() async throws {
        let rig = await RS485PanelTests.Rig.make(rows: 1, columns: 1)
        teardown { await rig.stop() }
        try await rig.panel.homed()
        let modules = try #require(rig.panel as any Panel as? any TakesModuleCommands)
        let refusal = ModuleCommandError.unknownToModule("module 1 runs firmware v7, which has no diagnostics (Universal Firmware's modules have)")
        await #expect(throws: refusal) { try await modules.send(ModuleCommandCall("diagnostics"), row: 1, column: 1) }
        await #expect(throws: ModuleCommandError.self) { try await modules.send(ModuleCommandCall("hall-test"), row: 1, column: 1) }
        let sent = String(decoding: await rig.bus.received.map(\.byte), as: UTF8.self)
        #expect(sent.ranges(of: "m01v").count == 1, "asked once: \(sent.debugDescription)")
        #expect(!sent.contains("m01Q") && !sent.contains("m01T"))
        #expect(await rig.panel.firmware(module: 0) == .v7)
    }

    /// A wall of both firmwares: each module is told by what it answers, and each is asked only
    /// what it knows; a board shows on all of them.
    @Test func aMixedWallIsToldModuleByModule() async throws {
        let rig = await RS485PanelTests.Rig.make(rows: 1, columns: 3, serials: ["5657000A", nil, "5657000C"])
        teardown { await rig.stop() }
        try await rig.panel.homed()
        let modules = try #require(rig.panel as any Panel as? any TakesModuleCommands)
        for column in 1...3 {
            let outcome: String
            do {
                outcome = try await modules.send(ModuleCommandCall("diagnostics"), row: 1, column: column).sent
            } catch {
                guard case .unknownToModule(let why) = error else { throw error }
                outcome = why
            }
            #expect(
                outcome == (column == 2 ? "module 2 runs firmware v7, which has no diagnostics (Universal Firmware's modules have)" : "m0\(column)Q"))
        }
        #expect(await [0, 1, 2].asyncMap { await rig.panel.firmware(module: $0) } == [.universal, .v7, .universal])
        let plan = try await rig.plan(to: "V7U")
        try await rig.panel.play(plan, cutoff: PlayCutoff())
        #expect(await rig.shown() == plan.targets.map(Optional.some))
    }

    /// A module that answers neither `v` nor `d` (here renumbered behind flapd's back) is not
    /// taken for v7: its test is sent, its silence is said, and it is asked again next time.
    @Test func aSilentModuleIsNotTakenForV7() async throws {
        let rig = await RS485PanelTests.Rig.make(rows: 1, columns: 2, serials: ["5657000A", nil])
        teardown { await rig.stop() }
        try await rig.panel.homed()
        try await rig.host.write(RS485Frame.encode(.setID(9), to: .module(2)))
        let modules = try #require(rig.panel as any Panel as? any TakesModuleCommands)
        var refusal: ModuleCommandError?
        do {
            _ = try await modules.send(ModuleCommandCall("diagnostics"), row: 1, column: 2)
        } catch {
            refusal = error
        }
        if case .noAnswer? = refusal {} else { Issue.record("a silence is a 504, not \(String(describing: refusal))") }
        #expect(await rig.panel.firmware(module: 1) == nil)
        let sent = String(decoding: await rig.bus.received.map(\.byte), as: UTF8.self)
        #expect(sent.hasSuffix("\nm02v\nm02d\n\nm02Q\n"), "\(sent.suffix(40).debugDescription)")
    }

    /// Configured, the firmware is believed: a v7 wall is never asked for a version.
    @Test func aConfiguredFirmwareIsNotAskedFor() async throws {
        let rig = await RS485PanelTests.Rig.make(rows: 1, columns: 2, firmware: .v7)
        teardown { await rig.stop() }
        try await rig.panel.homed()
        let modules = try #require(rig.panel as any Panel as? any TakesModuleCommands)
        await #expect(throws: ModuleCommandError.self) { try await modules.send(ModuleCommandCall("hall-test"), row: 1, column: 2) }
        let sent = String(decoding: await rig.bus.received.map(\.byte), as: UTF8.self)
        #expect(!sent.contains("v") && !sent.contains("T"), "\(sent.debugDescription)")
    }

    /// The declaration reads a call's arguments by their kinds, and names what is missing.
    @Test func aCallIsReadByTheDeclaration() throws {
        let declared = [
            ModuleCommandDeclaration("home", "find home"),
            ModuleCommandDeclaration("nudge", "turn on", arguments: [ModuleArgument("steps", .number(1...10), "less than a turn")])
        ]
        #expect(try declared.call("nudge") { _ in .number(3) } == ModuleCommandCall("nudge", ["steps": .number(3)]))
        #expect(throws: ModuleCommandError.invalid("nudge needs steps, a whole number from 1 to 10 (less than a turn)")) {
            try declared.call("nudge") { _ in nil }
        }
        #expect(throws: ModuleCommandError.invalid("\"spin\" is not a command of these modules; they take home, nudge STEPS")) {
            try declared.call("spin") { _ in nil }
        }
    }

    @Test func aPanelWithoutTheCapabilityIsNotAskedForIt() async throws {
        let clock = EventClock.drivenByCaller()
        let info = PanelInfo(id: "plain", size: BoardSize(rows: 1, columns: 2), drum: .vestaboard, motion: .forwardOnly, driver: "simulated")
        let panel: any Panel = SimulatedPanel(info: info, clock: clock)
        #expect(panel as? any TakesModuleCommands == nil)
    }
}

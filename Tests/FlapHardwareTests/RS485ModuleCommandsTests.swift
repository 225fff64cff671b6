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

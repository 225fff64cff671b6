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
        let stored = try await modules.send(.store(flap: "A", step: 321), row: 2, column: 1)
        #expect(stored.panel == "wall" && stored.id == 3 && stored.sent.hasPrefix("m03w"))
        let dump = try await modules.send(.dump, row: 2, column: 1)
        #expect(dump.positions == ["A": 321] && dump.steps == 4096, "\(dump)")
        await #expect(throws: ModuleCommandError.offTheBoard(rows: 2, columns: 2)) { try await modules.send(.home, row: 3, column: 1) }
        await #expect(throws: ModuleCommandError.self) { try await modules.send(.store(flap: "é", step: 1), row: 1, column: 1) }
        await #expect(throws: ModuleCommandError.self) { try await modules.send(.nudge(1_000_000), row: 1, column: 1) }
    }

    @Test func aPanelWithoutTheCapabilityIsNotAskedForIt() async throws {
        let clock = EventClock.drivenByCaller()
        let info = PanelInfo(id: "plain", size: BoardSize(rows: 1, columns: 2), drum: .vestaboard, motion: .forwardOnly, driver: "simulated")
        let panel: any Panel = SimulatedPanel(info: info, clock: clock)
        #expect(panel as? any TakesModuleCommands == nil)
    }
}

import FlapCore
import FlapHardware
import TestSupport
import Testing

/// A directly driven board has the module-offsets capability: asked for as a capability, never
/// by its type, it says each module's offset and takes a new one.
@Suite(.cleansUp, .serialized, .timeLimit(.minutes(2))) struct DirectDriveOffsetsTests {
    @Test func theBoardsOffsetsAreReadAndSetThroughTheCapability() async throws {
        let rig = await DirectDrivePanelTests.Rig(rows: 1, columns: 2)
        teardown { await rig.stop() }
        let panel: any Panel = rig.panel
        let modules = try #require(panel as? any TakesModuleOffsets)
        #expect(await modules.moduleOffsets().count == 2)
        #expect(modules.stepsPerFlap == Double(rig.engine.profile.stepsPerTurn) / 52)
        await modules.setOffset(17, module: 1)
        #expect(await modules.moduleOffsets()[1] == 17)
        #expect(rig.engine.modules()[1].offsetSteps == 17, "the engine's own module took it")
        #expect((panel as? any TakesModuleCommands) == nil, "a board with no firmware takes no module commands")
    }
}

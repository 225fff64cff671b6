import FlapClocks
import FlapCore
import FlapHardware
import FlapSimulated
import TestSupport
import Testing

/// Modules with reels of their own on a wall of Universal Firmware: each is told its flaps
/// (`N`) once home, and its plans, frames and landings follow them.
@Suite(.cleansUp, .serialized, .timeLimit(.minutes(3))) struct RS485OwnReelsTests {
    static let serials = ["5657000000000000000A", "5657000000000000000B", "5657000000000000000C"]
    /// Module 2: the original 40-flap reel. Module 3: digits and a custom flap, the filled one.
    static let ownReels = [2: try! RS485Reel(" ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.,'"), 3: try! RS485Reel(" 0123456789f")]

    @Test func twoModulesWithTheirOwnFlapsShowAMessageThatUsesThem() async throws {
        let rig = await RS485PanelTests.Rig.make(
            rows: 1, columns: 3, serials: Self.serials, firmware: .universal, ownReels: Self.ownReels)
        teardown { await rig.stop() }
        try await rig.panel.homed()
        #expect(await rig.bus.module(1).reel == Self.ownReels[2]?.bytes, "module 2 was told its 40 flaps")
        #expect(await rig.bus.module(2).reel == Self.ownReels[3]?.bytes, "module 3 its own 12")
        #expect(await rig.bus.module(0).reel == RS485Reel.firmware.bytes, "module 1 keeps the wall's")
        let timing = await rig.panel.planTiming()
        #expect(timing.moduleDrums?.map(\.count) == [64 - 1, 40, 12], "the wall's reel has one flap (*) no board character asks for")

        var planner = try FlipPlanner(drum: rig.panel.info.drum)
        planner.time(by: timing)
        let target = try Board(
            size: BoardSize(rows: 1, columns: 3), codes: [CharacterCode(character: "?")!, CharacterCode(character: "Z")!, Colour.filled.code])
        let plan = try planner.plan(from: await rig.panel.positions().map { ModuleMotion(position: $0) }, to: target)
        #expect(plan.warnings.isEmpty, "\(plan.warnings)")
        try await rig.panel.play(plan, cutoff: PlayCutoff())
        let shown = await (0..<3).asyncMap { index in await rig.bus.module(index).shownByte }
        #expect(shown == ["?", "Z", "f"].map { UInt8(ascii: $0) }, "each module landed on its own flap")
        #expect(await rig.panel.health().faults.isEmpty, "each module says the flap it was sent")

        // A character module 2's 40 flaps lack: its stand-in, with a warning.
        let next = try Board(
            size: target.size, codes: [CharacterCode(character: "A")!, CharacterCode(character: "?")!, CharacterCode(character: "7")!])
        let (laid, warnings) = rig.panel.info.drum.shown(next, moduleDrums: timing.moduleDrums)
        #expect(warnings == ["row 1, column 2 has no ? on its own flaps: shown as ."])
        let again = try planner.plan(from: await rig.panel.positions().map { ModuleMotion(position: $0) }, to: next)
        try await rig.panel.play(again, cutoff: PlayCutoff())
        #expect(again.finalBoard == laid)
        #expect(await (0..<3).asyncMap { await rig.bus.module($0).shownByte } == ["A", ".", "7"].map { UInt8(ascii: $0) })
    }
}

extension SimulatedRS485Module {
    /// The byte of the flap it shows at rest (nil before it homed).
    var shownByte: UInt8? { flap.map { reel[$0] } }
}

extension Sequence {
    func asyncMap<T>(_ transform: (Element) async -> T) async -> [T] {
        var result: [T] = []
        for element in self { result.append(await transform(element)) }
        return result
    }
}

extension RS485OwnReelsTests {
    @Test func aModuleThatSaysItsOwnFlapsIsPlannedByThem() async throws {
        let rig = await RS485PanelTests.Rig.make(rows: 1, columns: 3, serials: Self.serials, firmware: .universal)
        teardown { await rig.stop() }
        let digits = Array(" 0123456789f".utf8)
        await rig.bus.fit(reel: digits, module: 3)
        try await rig.panel.homed()
        let timing = await rig.panel.planTiming()
        #expect(timing.moduleDrums?.map(\.count) == [63, 63, 12], "module 3 said its 12 flaps")
        var planner = try FlipPlanner(drum: rig.panel.info.drum)
        planner.time(by: timing)
        let target = try Board(
            size: BoardSize(rows: 1, columns: 3), codes: [CharacterCode(character: "H")!, CharacterCode(character: "I")!, Colour.filled.code])
        let plan = try planner.plan(from: await rig.panel.positions().map { ModuleMotion(position: $0) }, to: target)
        try await rig.panel.play(plan, cutoff: PlayCutoff())
        #expect(await (0..<3).asyncMap { await rig.bus.module($0).shownByte } == ["H", "I", "f"].map { UInt8(ascii: $0) })
        #expect(await rig.panel.health().faults.isEmpty)
    }

    @Test func aV7WallIsNotAskedForFlapsAndPlansAsBefore() async throws {
        let rig = await RS485PanelTests.Rig.make(rows: 1, columns: 3)
        teardown { await rig.stop() }
        try await rig.panel.homed()
        #expect(await rig.panel.planTiming().moduleDrums == nil)
    }
}

extension RS485OwnReelsTests {
    @Test func anUnpoweredUniversalWallIsNotAskedForItsFlaps() async throws {
        let rig = await RS485PanelTests.Rig.make(rows: 1, columns: 8, firmware: .universal, onTheBus: [])
        teardown { await rig.stop() }
        let homing = await rig.panel.homingTime
        let start = rig.clock.now
        try await rig.panel.homed()
        // Three silent dumps end the asking; no module is then asked for its flaps.
        let asking = start.duration(to: rig.clock.now) - homing
        #expect(asking <= .milliseconds(1500 * 3 + 100), "three dumps of 1.5 s at most: \(asking)")
        let sent = String(decoding: await rig.bus.received.map(\.byte), as: UTF8.self)
        #expect(!sent.contains("A"), "\(sent.debugDescription)")
    }
}

import FlapClocks
import FlapCore
import FlapHardware
import FlapSimulated
import TestSupport
import Testing

/// A wall of Universal Firmware's modules is numbered from where they hang: each module heard
/// by its serial number shows a mark when asked, takes the ID of the place it is said to hang
/// at, and the wall then shows messages as if its modules had been flashed with their IDs.
@Suite(.cleansUp, .serialized, .timeLimit(.minutes(2))) struct RS485NumberingTests {
    static let mark = RS485Reel.firmware.bytes.firstIndex(of: UInt8(ascii: "?"))

    /// Waits on the clock until `count` modules with no place are heard.
    static func heard(_ count: Int, on rig: RS485PanelTests.Rig) async throws -> ModuleNumbering {
        for _ in 0..<120 {
            let numbering = await rig.panel.numbering(asking: false)
            if numbering.unplaced.count >= count { return numbering }
            try await rig.clock.sleep(for: .seconds(1))
        }
        return await rig.panel.numbering(asking: false)
    }

    /// The simulated module with `serial`.
    static func module(_ serial: String, on rig: RS485PanelTests.Rig, among count: Int) async -> SimulatedRS485Module? {
        for index in 0..<count {
            let module = await rig.bus.module(index)
            if module.serial == serial { return module }
        }
        return nil
    }

    @Test func anUnnumberedWallIsNumberedPlaceByPlace() async throws {
        let serials = (1...6).map { SimulatedRS485Module.serial(made: 0x40 + $0) }
        let rig = await RS485PanelTests.Rig.make(rows: 2, columns: 3, onTheBus: [], unnumbered: serials)
        teardown { await rig.stop() }
        let panel = try #require(rig.panel as any Panel as? any NumbersModules)
        let begun = await panel.numbering(asking: true)
        #expect(begun.places.allSatisfy { !$0.answered } && !begun.complete, "\(begun)")
        let heard = try await Self.heard(6, on: rig)
        #expect(Set(heard.unplaced.map(\.serial)) == Set(serials), "every module announced itself: \(heard.unplaced)")

        // Each module marked in turn, and placed where the owner says it hangs (a shuffled order).
        let places = [(2, 3), (1, 1), (2, 1), (1, 3), (1, 2), (2, 2)]
        for (serial, (row, column)) in zip(serials.reversed(), places) {
            let marked = try await panel.mark(serial: serial)
            #expect(marked.unplaced.first { $0.serial == serial }?.marked == true)
            try await rig.clock.sleep(for: .seconds(5))
            #expect(await Self.module(serial, on: rig, among: 6)?.flap == Self.mark, "\(serial) shows the mark")
            let placed = try await panel.place(serial: serial.lowercased(), row: row, column: column)
            #expect(placed.places[(row - 1) * 3 + column - 1].serial == serial)
            #expect(!placed.unplaced.contains { $0.serial == serial })
        }
        let done = await panel.numbering(asking: false)
        #expect(done.complete && done.unplaced.isEmpty, "\(done)")
        for (serial, (row, column)) in zip(serials.reversed(), places) {
            #expect(await Self.module(serial, on: rig, among: 6)?.id == (row - 1) * 3 + column, "\(serial) took its place's ID")
        }
        // The wall shows a message, each module at its place.
        try await rig.clock.sleep(for: .seconds(5))
        let plan = try await rig.plan(to: "ABC\nXYZ")
        try await rig.panel.play(plan, cutoff: PlayCutoff())
        for (serial, (row, column)) in zip(serials.reversed(), places) {
            let reelIndex = await Self.module(serial, on: rig, among: 6)?.flap
            #expect(reelIndex.map { RS485Reel.firmware.bytes[$0] } == Array("ABCXYZ".utf8)[(row - 1) * 3 + column - 1])
        }
    }

    /// A module swapped for a new one: the places that answer are heard by their IDs, and the
    /// new module alone is placed, with no mark needed.
    @Test func aSwappedModuleIsRenumberedAlone() async throws {
        let old = ["5657000000000000000A", "5657000000000000000C"]
        let new = "5657000000000000000F"
        let rig = await RS485PanelTests.Rig.make(rows: 1, columns: 3, serials: old, onTheBus: [1, 3], unnumbered: [new])
        teardown { await rig.stop() }
        let panel = try #require(rig.panel as any Panel as? any NumbersModules)
        let begun = await panel.numbering(asking: true)
        #expect(begun.places.map(\.serial) == [old[0], nil, old[1]] && begun.places.map(\.answered) == [true, false, true], "\(begun)")
        let heard = try await Self.heard(1, on: rig)
        #expect(heard.unplaced.map(\.serial) == [new])
        let done = try await panel.place(serial: new, row: 1, column: 2)
        #expect(done.complete && done.unplaced.isEmpty, "\(done)")
        #expect(await rig.bus.module(2).id == 2)
    }

    /// A module placed where another answers: that one is lent an ID to be placed again, and
    /// the two swap their IDs (modules moved from place to place).
    @Test func aModuleMovedToATakenPlaceMovesTheOtherAside() async throws {
        let serials = ["5657000000000000000A", "5657000000000000000B"]
        let rig = await RS485PanelTests.Rig.make(rows: 1, columns: 2, serials: serials)
        teardown { await rig.stop() }
        let panel = try #require(rig.panel as any Panel as? any NumbersModules)
        // The second module keeps a calibration of its own, which goes with it to its new place.
        try await rig.panel.homed()
        let reel = RS485Reel.firmware
        let a = try #require(reel.drum.index(of: CharacterCode(character: "A")!))
        try await rig.panel.command(.storeFlap(reel.reelIndex[a], step: reel.profile().step(ofFlap: a) + 30), module: 1)
        let calibrated = try #require(await rig.panel.moduleSteppers())[1]
        _ = await panel.numbering(asking: true)
        let aside = try await panel.place(serial: serials[1], row: 1, column: 1)
        #expect(await rig.panel.moduleSteppers()?[0] == calibrated, "its stored flap positions were asked for at its new place")
        #expect(aside.unplaced.map(\.serial) == [serials[0]] && aside.places.map(\.answered) == [true, false], "\(aside)")
        #expect(await rig.bus.module(0).id == 254, "the module moved aside was lent the highest free ID")
        let done = try await panel.place(serial: serials[0], row: 1, column: 2)
        #expect(done.complete)
        let (first, second) = (await rig.bus.module(0).id, await rig.bus.module(1).id)
        #expect(first == 2 && second == 1)
    }

    @Test func aSerialNeverHeardOrAPlaceOffTheWallIsRefused() async throws {
        let rig = await RS485PanelTests.Rig.make(rows: 1, columns: 2, serials: ["5657000000000000000A", "5657000000000000000B"])
        teardown { await rig.stop() }
        let panel = try #require(rig.panel as any Panel as? any NumbersModules)
        await #expect(throws: ModuleCommandError.self) { try await panel.mark(serial: "1234") }
        await #expect(throws: ModuleCommandError.offTheBoard(rows: 1, columns: 2)) {
            try await panel.place(serial: "5657000000000000000A", row: 1, column: 3)
        }
    }
}

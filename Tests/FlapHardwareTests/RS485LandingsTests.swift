import FlapClocks
import FlapCore
import FlapHardware
import FlapSimulated
import TestSupport
import Testing

/// After a board, each module of Universal Firmware it moved is asked which flap it shows: a
/// frame lost on the bus is sent again, and a module that still shows another flap is a fault
/// of the wall's, reported as what it says, never as what it was sent.
@Suite(.cleansUp, .serialized, .timeLimit(.minutes(2))) struct RS485LandingsTests {
    static let serials = ["5657000000000000000A", "5657000000000000000B", "5657000000000000000C"]

    @Test func aLostFrameIsSentAgain() async throws {
        let rig = await RS485PanelTests.Rig.make(rows: 1, columns: 3, serials: Self.serials, firmware: .universal)
        teardown { await rig.stop() }
        var losing = SimulatedRS485Module.Faults()
        losing.losesShows = 1
        await rig.bus.inject(losing, module: 2)
        try await rig.panel.homed()
        let plan = try await rig.plan(to: "ABC")
        try await rig.panel.play(plan, cutoff: PlayCutoff())
        #expect(await rig.shown() == plan.targets.map(Optional.some), "the module that lost its frame shows B all the same")
        #expect(await rig.panel.health().faults.isEmpty)
        #expect(await rig.panel.positions() == plan.targets)
    }

    @Test func aModuleThatStillShowsAnotherFlapIsAFaultAndReportedAsItSays() async throws {
        let rig = await RS485PanelTests.Rig.make(rows: 1, columns: 3, serials: Self.serials, firmware: .universal)
        teardown { await rig.stop() }
        var deaf = SimulatedRS485Module.Faults()
        deaf.losesShows = 2
        await rig.bus.inject(deaf, module: 2)
        try await rig.panel.homed()
        let plan = try await rig.plan(to: "ABC")
        try await rig.panel.play(plan, cutoff: PlayCutoff())
        let faults = await rig.panel.health().faults
        #expect(faults.map { "\($0.row),\($0.column),\($0.kind)" } == ["1,2,landedElsewhere"], "\(faults)")
        #expect(faults.first?.said?.hasPrefix("it shows blank where it was sent \"B\", twice") == true, "\(faults)")
        let positions = await rig.panel.positions()
        #expect(positions == [plan.targets[0], 0, plan.targets[2]], "flapd reports the blank the module shows")
        // The next board lands it: the fault goes.
        let next = try await rig.plan(to: "XYZ")
        try await rig.panel.play(next, cutoff: PlayCutoff())
        #expect(await rig.shown() == next.targets.map(Optional.some))
        #expect(await rig.panel.health().faults.isEmpty)
    }
}

import Testing

@testable import FlapCore

/// Modules of one panel with flaps of their own: each is planned, drawn and warned about by its
/// own drum, and the rest by the panel's.
@Suite struct ModuleDrumsTests {
    /// A 1×3 panel of Vestaboard modules, its middle one of 40 flaps and its last one a custom
    /// drum of digits and a filled flap.
    static let moduleDrums = [Drum.vestaboard, .chainlink40, try! Drum(string: " 0123456789f", name: "own")]

    static func board(_ codes: [CharacterCode]) -> Board { try! Board(size: BoardSize(rows: 1, columns: 3), codes: codes) }

    @Test func eachModuleIsPlannedOnItsOwnDrum() throws {
        var planner = try FlipPlanner(drum: .vestaboard)
        planner.moduleDrums = Self.moduleDrums
        let filled = Colour.filled.code
        let target = Self.board([CharacterCode(character: "?")!, CharacterCode(character: "Z")!, filled])
        let plan = try planner.plan(from: Board(size: target.size), to: target)
        #expect(plan.finalBoard == target, "\(plan.finalBoard.lines)")
        // Z is flap 26 of the 40-flap drum; the filled flap the 11th of the custom one.
        #expect(plan.modules.map(\.target) == [Drum.vestaboard.index(of: CharacterCode(character: "?")!)!, 26, 11])
        #expect(plan.modules[2].path == Array(0...11), "the custom drum's module turns through its own 12 flaps only")
        #expect(plan.warnings.isEmpty)
        // Half-way, each module shows a flap of its own drum.
        let middle = plan.board(at: plan.duration / 2)
        #expect(Self.moduleDrums.indices.allSatisfy { Self.moduleDrums[$0].contains(middle[0, $0]) })
    }

    @Test func aCharacterAModuleLacksIsItsStandInWithAWarningNamingItsPlace() throws {
        let target = Self.board([CharacterCode(character: "?")!, CharacterCode(character: "?")!, CharacterCode(character: "A")!])
        let (shown, warnings) = Drum.vestaboard.shown(target, moduleDrums: Self.moduleDrums)
        #expect(shown == Self.board([CharacterCode(character: "?")!, CharacterCode(character: ".")!, .blank]))
        #expect(
            warnings == [
                "row 1, column 2 has no ? on its own flaps: shown as .",
                "row 1, column 3 has no A on its own flaps: shown as blank"
            ])
        // No module drums: the panel's own warnings, unchanged.
        #expect(Drum.chainlink40.shown(target, moduleDrums: nil) == Drum.chainlink40.shown(target))
        var planner = try FlipPlanner(drum: .vestaboard)
        planner.moduleDrums = Self.moduleDrums
        let plan = try planner.plan(from: Board(size: target.size), to: target)
        #expect(plan.finalBoard == shown)
        #expect(plan.warnings == ["drum chainlink40 has no ? (60): shown as . (56)", "drum own has no A (1): shown as blank (0)"])
    }

    @Test func aModuleAtAFlapPastItsOwnDrumIsRefused() throws {
        var planner = try FlipPlanner(drum: .vestaboard)
        planner.moduleDrums = Self.moduleDrums
        let target = Self.board([.blank, .blank, .blank])
        #expect(throws: PlanError.self) { try planner.plan(from: [0, 0, 20].map { ModuleMotion(position: $0) }, to: target) }
    }
}

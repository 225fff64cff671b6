import Testing

@testable import FlapCore

@Suite struct DrumTests {
    func code(_ c: Character) -> CharacterCode { CharacterCode(character: c.unicodeScalars.first!)! }

    @Test func namedDrumsHaveTheirFlapsInOrder() {
        #expect(Drum.vestaboard.count == 66)
        #expect(Drum.vestaboard.codes == CharacterCode.all)
        #expect(Drum.chainlink52.count == 52)
        #expect(Drum.chainlink40.count == 40)
        #expect(Drum.chainlink52.codes[27] == Colour.green.code)
        #expect(Drum.chainlink52.codes[38] == Colour.red.code)
        #expect(Drum.chainlink52.codes.last == Colour.white.code)
        #expect(Drum.chainlink52.string == " ABCDEFGHIJKLMNOPQRSTUVWXYZg0123456789r.?-$'#yp,!@&w")
        for drum in Drum.named { #expect(drum.codes.first == .blank) }
    }

    @Test func drumStringsAreCheckedWithThePlaceOfTheProblem() {
        #expect(throws: DrumError("drum string, character 3: '~' is not a board character or colour letter")) {
            try Drum(string: " A~")
        }
        #expect(throws: DrumError("drum custom must start with the blank flap (its home position)")) {
            try Drum(string: "AB")
        }
        #expect(throws: DrumError("drum custom has A (1) twice (flaps 2 and 3)")) { try Drum(string: " AA") }
        #expect((try? Drum(string: " ABCrg"))?.count == 6)
    }

    @Test func missingCodesFallBackAsDocumented() {
        let c40 = Drum.chainlink40
        #expect(c40.flap(for: code("!")) == (c40.index(of: code("."))!, true))
        #expect(c40.flap(for: code("°")) == (c40.index(of: code("O"))!, true))
        #expect(c40.flap(for: code("\"")) == (c40.index(of: code("'"))!, true))
        #expect(c40.flap(for: Colour.red.code) == (0, true))
        #expect(c40.flap(for: code("A")) == (1, false))
        let c52 = Drum.chainlink52
        #expect(c52.flap(for: Colour.orange.code) == (c52.index(of: Colour.red.code)!, true))
        #expect(c52.flap(for: Colour.blue.code) == (c52.index(of: Colour.violet.code)!, true))
        #expect(c52.flap(for: Colour.black.code) == (0, true))
        #expect(c52.flap(for: code(";")) == (c52.index(of: code(","))!, true))
    }

    @Test func aPlanOnADrumLackingACodeWarnsOnce() throws {
        let planner = try FlipPlanner(drum: .chainlink40)
        let target = try Board(rows: TextLayout.encodeText("HI! BYE!").rows)
        let plan = try planner.plan(from: Board(size: .flagship), to: target)
        #expect(plan.warnings == ["drum chainlink40 has no ! (37): shown as . (56)"])
        #expect(plan.finalBoard[0, 2] == code("."))
    }
}

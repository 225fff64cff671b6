import Testing

@testable import FlapCore

/// A board as a drum's modules show it: what the drum lacks stands in, and is said once, by name
/// and place.
@Suite struct DrumShownTests {
    @Test func eachCharacterTheDrumLacksIsShownAsItsStandInWithOneWarning() throws {
        var board = Board(size: BoardSize(rows: 2, columns: 5))
        for (column, code) in [36, 62, 3].enumerated() { board[0, column] = CharacterCode(code)! }
        board[1, 0] = .degree
        board[1, 1] = CharacterCode(64)!  // orange
        let (shown, warnings) = Drum.chainlink40.shown(board)
        #expect(shown[0, 1] == CharacterCode(character: "O") && shown[1, 0] == CharacterCode(character: "O"))
        #expect(shown[1, 1] == .blank)
        #expect(
            warnings == [
                "the chainlink40 drum has no ° (row 1, column 2): shown as O",
                "the chainlink40 drum has no orange (row 2, column 2): shown as blank"
            ])
        // A drum with every code changes nothing and says nothing.
        let whole = Drum.vestaboard.shown(board)
        #expect(whole.board == board && whole.warnings.isEmpty)
        #expect(Drum.vestaboard.hasFlap62 && !Drum.chainlink40.hasFlap62)
    }
}

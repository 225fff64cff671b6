import Testing

@testable import FlapCore

/// A Note's flap 62 is a heart wherever a board is drawn (text, terminal, LED bitmap, pixels,
/// SVG); a Flagship's, and any other size's, is a degree sign.
@Suite struct BoardModelTests {
    static func board(_ size: BoardSize) throws -> Board {
        var codes = Array(repeating: CharacterCode.blank, count: size.count)
        codes[0] = .degree
        return try Board(size: size, codes: codes)
    }

    @Test func theSizeSaysTheModel() {
        #expect(BoardSize.note.model == .note && BoardModel.note.size == .note)
        #expect(BoardSize.flagship.model == .flagship && BoardSize(rows: 3, columns: 16).model == .flagship)
        #expect(BoardModel.note.flap62 == .heart && BoardModel.flagship.flap62 == .degree)
        #expect(Flap62.heart.character(.degree) == "♥" && Flap62.degree.character(.degree) == "°")
        #expect(Flap62.heart.character(CharacterCode(1)!) == "A")
    }

    @Test func textAndTheTerminalDrawTheNotesHeart() throws {
        let note = try Self.board(.note), flagship = try Self.board(.flagship)
        #expect(note.lines[0].first == "♥" && flagship.lines[0].first == "°")
        #expect(BoardText.plain(note).contains("│♥") && BoardText.plain(flagship).contains("│°"))
        #expect(BoardText.ansi(note).contains("m♥ ") && BoardText.ansi(note, moving: []).contains("m♥ "))
        #expect(BoardSVG.document(note).contains(">♥</text>") && BoardSVG.document(flagship).contains(">°</text>"))
    }

    @Test func pixelsDrawTheHeartGlyph() throws {
        let heart = try #require(Font5x7.glyph("♥")), degree = try #require(Font5x7.glyph("°"))
        #expect(heart != degree)
        func cell(_ board: Board) -> [Bool] {
            let image = BoardBitmap.draw(board)
            return (0..<(Font5x7.width * Font5x7.height)).map { image[$0 % Font5x7.width, $0 / Font5x7.width] }
        }
        #expect(cell(try Self.board(.note)) == heart)
        #expect(cell(try Self.board(.flagship)) == degree)
        let geometry = CellGeometry.smallest
        let noteFace = BoardRenderer.face(of: .degree, flap62: .heart, font: .small, geometry: geometry, style: .screen)
        let flagshipFace = BoardRenderer.face(of: .degree, flap62: .degree, font: .small, geometry: geometry, style: .screen)
        #expect(noteFace != flagshipFace)
    }
}

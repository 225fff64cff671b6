import Testing

@testable import FlapCore

@Suite struct BoardBitmapTests {
    @Test func everyCharacterHasItsOwnFiveBySevenGlyph() {
        var seen: [[Bool]: Character] = [:]
        for code in CharacterCode.all where code.colour == nil {
            let character = code.character!
            let glyph = Font5x7.glyph(character)
            #expect(glyph?.count == 35, "\(code) has no 5×7 glyph")
            guard let glyph else { continue }
            #expect(seen[glyph] == nil, "\(character) looks like \(seen[glyph].map(String.init) ?? "")")
            seen[glyph] = character
            #expect(character == " " || glyph.contains(true), "\(code) is drawn blank")
        }
        #expect(Font5x7.glyphs.values.allSatisfy { $0.count == 7 && $0.allSatisfy { $0.count == 5 } })
    }

    @Test func aBoardIsDrawnCellByCellWithGaps() throws {
        var board = Board(size: BoardSize(rows: 2, columns: 3))
        board[0, 0] = CharacterCode(1)!  // A
        board[1, 2] = CharacterCode(63)!  // red: a solid cell
        board[1, 1] = CharacterCode(70)!  // black: dark
        let image = BoardBitmap.draw(board)
        #expect(image.width == 18 && image.height == 16)
        // A's top row .###. at the first cell's top.
        #expect((0..<5).map { image[$0, 0] } == [false, true, true, true, false])
        // The red chip fills 5×7 at (12, 8); the gap column and row stay dark.
        #expect((12..<17).allSatisfy { x in (8..<15).allSatisfy { y in image[x, y] } })
        #expect(!image[17, 8] && !image[12, 15])
        #expect((6..<11).allSatisfy { x in (8..<15).allSatisfy { y in !image[x, y] } })
        let lit = (0..<18).reduce(0) { sum, x in sum + (0..<16).filter { image[x, $0] }.count }
        #expect(lit == Font5x7.glyph("A")!.filter { $0 }.count + 35)
    }
}

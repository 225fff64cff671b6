import Foundation
import FoundationEssentials
import Testing

@testable import FlapCore

@Suite struct BoardTextTests {
    let board = try! Board(rows: TextLayout.encodeText("{66}GO{63}", options: LayoutOptions(size: BoardSize(rows: 1, columns: 4))).rows)

    @Test func chipsAreLettersWithoutColourAndColouredCellsWithIt() {
        #expect(BoardText.plain(board) == "┌────┐\n│gGOr│\n└────┘")
        let coloured = BoardText.plain(board, colour: true)
        let green = Colour.green.rgb, red = Colour.red.rgb
        #expect(
            coloured.contains(
                "│\u{1B}[48;2;\(green.red);\(green.green);\(green.blue)m \u{1B}[0mGO\u{1B}[48;2;\(red.red);\(red.green);\(red.blue)m \u{1B}[0m│"))
        // One cell a module: the frame lines up once the escapes are gone.
        let visible = coloured.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        #expect(visible == "┌────┐\n│ GO │\n└────┘")
    }
}

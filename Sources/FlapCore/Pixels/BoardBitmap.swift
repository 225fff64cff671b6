/// A board drawn into a one-bit image for small LED matrices: each module a 5×7 glyph in a
/// 6×8 cell (a column and a row of gap after it); colour chips and `filled` are solid cells,
/// `black` and blank are dark.
public enum BoardBitmap {
    /// A module's cell, glyph and gap, across.
    public static let cellWidth = Font5x7.width + 1
    /// A module's cell, glyph and gap, down.
    public static let cellHeight = Font5x7.height + 1

    /// The image size for `size`.
    public static func size(of size: BoardSize) -> (width: Int, height: Int) {
        (size.columns * cellWidth, size.rows * cellHeight)
    }

    /// Draws `board`, the module at (row, column) at (column × 6, row × 8).
    public static func draw(_ board: Board) -> Bitmap {
        let (width, height) = size(of: board.size)
        var image = Bitmap(width: width, height: height)
        for row in 0..<board.size.rows {
            for column in 0..<board.size.columns {
                drawCell(board[row, column], flap62: board.flap62, into: &image, x: column * cellWidth, y: row * cellHeight)
            }
        }
        return image
    }

    static func drawCell(_ code: CharacterCode, flap62: Flap62, into image: inout Bitmap, x: Int, y: Int) {
        let pixels: [Bool]
        if let colour = code.colour {
            pixels = Array(repeating: colour != .black, count: Font5x7.width * Font5x7.height)
        } else {
            pixels = flap62.character(code).flatMap(Font5x7.glyph) ?? []
        }
        for (i, lit) in pixels.enumerated() where lit { image[x + i % Font5x7.width, y + i / Font5x7.width] = true }
    }
}

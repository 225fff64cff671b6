import FlapCore

/// How the Notes of an array stand: side by side in a row (3 × 15n) or stacked in a column
/// (3n × 15). The array is one board of the combined size; each Note shows its part.
public enum NoteArrangement: String, Sendable, CaseIterable {
    case row
    case column

    /// The combined board of `count` Notes.
    public func size(of count: Int) -> BoardSize {
        self == .row ? BoardSize(rows: 3, columns: 15 * count) : BoardSize(rows: 3 * count, columns: 15)
    }

    /// Where each of `count` Notes sits in the combined board, the first at the top left.
    public func regions(of count: Int) -> [BoardRegion] {
        (0..<count).map { index in
            BoardRegion(row: self == .column ? 3 * index : 0, column: self == .row ? 15 * index : 0, size: .note)
        }
    }
}

/// A rectangle of a board: the part of an array one board shows.
public struct BoardRegion: Sendable, Equatable {
    /// Its first row on the whole board.
    public var row: Int
    /// Its first column on the whole board.
    public var column: Int
    /// Its rows and columns.
    public var size: BoardSize

    /// The region of `size` from (`row`, `column`).
    public init(row: Int, column: Int, size: BoardSize) {
        self.row = row
        self.column = column
        self.size = size
    }

    /// The whole of a `size` board.
    public static func whole(_ size: BoardSize) -> BoardRegion { BoardRegion(row: 0, column: 0, size: size) }

    /// Its part of `grid` (rows of the combined board).
    public func rows(of grid: [[Int]]) -> [[Int]] {
        grid[row..<(row + size.rows)].map { Array($0[column..<(column + size.columns)]) }
    }

    /// Whether the module at `row`, `column` of the combined board is in it.
    public func contains(row: Int, column: Int) -> Bool {
        (self.row..<(self.row + size.rows)).contains(row) && (self.column..<(self.column + size.columns)).contains(column)
    }
}

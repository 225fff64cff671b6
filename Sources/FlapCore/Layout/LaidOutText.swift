/// Rows of codes with what layout had to change to get them.
///
/// The rows are kept one after another in one buffer (`row * columns + column`), as a ``Board``
/// keeps them: a layout then costs one allocation, not one per row, and becomes a board without
/// copying row by row.
public struct LaidOutText: Sendable {
    /// Every row's codes one after another.
    public var codes: [CharacterCode]
    /// Codes in each row.
    public var columns: Int
    /// How many rows there are (a row of no columns still counts).
    public var rowCount: Int
    /// Substitutions made and rows cut, in the order they happened.
    public var warnings: [LayoutWarning]

    init(codes: [CharacterCode], columns: Int, rowCount: Int, warnings: [LayoutWarning]) {
        self.codes = codes
        self.columns = columns
        self.rowCount = rowCount
        self.warnings = warnings
    }

    /// Rows that must all be as long as the first.
    public init(rows: [[CharacterCode]], warnings: [LayoutWarning]) {
        precondition(rows.allSatisfy { $0.count == rows.first?.count }, "the rows of a layout are all as long")
        self.init(codes: rows.flatMap { $0 }, columns: rows.first?.count ?? 0, rowCount: rows.count, warnings: warnings)
    }

    /// The rows, each `columns` codes long (except from ``TextLayout/encode(_:substitutions:)``,
    /// whose one row is as long as the text).
    public var rows: [[CharacterCode]] {
        (0..<rowCount).map { r in Array(codes[(r * columns)..<((r + 1) * columns)]) }
    }

    /// The rows as a board; nil when there are no rows or no columns.
    public var board: Board? {
        guard rowCount > 0, columns > 0 else { return nil }
        return try? Board(size: BoardSize(rows: rowCount, columns: columns), codes: codes)
    }
}

extension LaidOutText: Equatable {
    /// Equal rows and warnings (with no rows, the width does not matter).
    public static func == (lhs: LaidOutText, rhs: LaidOutText) -> Bool {
        lhs.rowCount == rhs.rowCount && lhs.warnings == rhs.warnings
            && (lhs.rowCount == 0 || (lhs.columns == rhs.columns && lhs.codes == rhs.codes))
    }
}

/// What a panel shows: a code for every module, row by row.
public struct Board: Hashable, Sendable {
    /// Its rows and columns.
    public let size: BoardSize
    /// Codes in row-major order (`row * columns + column`).
    public private(set) var codes: [CharacterCode]
    /// What its flap 62 shows, for whatever draws it. Boards are equal by their codes alone:
    /// this says how code 62 looks, not what the board shows.
    public var flap62: Flap62

    /// A board with every module showing `fill`; flap 62 as a board of its size has it unless given.
    public init(size: BoardSize, fill: CharacterCode = .blank, flap62: Flap62? = nil) {
        self.size = size
        codes = Array(repeating: fill, count: size.count)
        self.flap62 = flap62 ?? Flap62(defaultFor: size)
    }

    /// Boards are equal when they have the same size and codes (flap 62's look aside).
    public static func == (a: Board, b: Board) -> Bool { a.size == b.size && a.codes == b.codes }

    /// Hashes what equality compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(size)
        hasher.combine(codes)
    }

    /// A board from rows that must all be `size.columns` long and `size.rows` in number.
    /// The board a `size` panel shows with its modules on drum `positions` (row-major).
    /// Modules with flaps of their own (`moduleDrums`, row-major) show theirs.
    public init(size: BoardSize, positions: [Int], drum: Drum, moduleDrums: [Drum]? = nil) {
        self.init(size: size, flap62: drum.flap62)
        for (i, p) in positions.prefix(size.count).enumerated() {
            self[i / size.columns, i % size.columns] = drum.drum(ofModule: i, in: moduleDrums).codes[p]
        }
    }

    /// A board of `size` from its codes in row-major order, exactly `size.count` of them.
    public init(size: BoardSize, codes: [CharacterCode]) throws(BoardError) {
        guard size.rows > 0, size.columns > 0 else { throw BoardError("a board needs at least one row and column") }
        guard codes.count == size.count else {
            throw BoardError("a \(size.rows)×\(size.columns) board has \(size.count) codes, not \(codes.count)")
        }
        self.size = size
        self.codes = codes
        flap62 = Flap62(defaultFor: size)
    }

    /// A board from rows of codes, all as long; an empty or ragged grid is refused.
    public init(rows: [[CharacterCode]]) throws(BoardError) {
        guard let width = rows.first?.count, width > 0 else { throw BoardError("a board needs at least one row and column") }
        for (index, row) in rows.enumerated() where row.count != width {
            throw BoardError("row \(index + 1) has \(row.count) codes; row 1 has \(width)")
        }
        size = BoardSize(rows: rows.count, columns: width)
        codes = rows.flatMap { $0 }
        flap62 = Flap62(defaultFor: size)
    }

    /// A board from integer rows, naming the row and column of the first code that is not valid.
    public init(codeRows: [[Int]]) throws(BoardError) {
        var rows: [[CharacterCode]] = []
        for (r, row) in codeRows.enumerated() {
            var codes: [CharacterCode] = []
            for (c, value) in row.enumerated() {
                guard let code = CharacterCode(value) else {
                    throw BoardError("row \(r + 1), column \(c + 1): \(value) is not a Vestaboard character code")
                }
                codes.append(code)
            }
            rows.append(codes)
        }
        try self.init(rows: rows)
    }

    /// The code at 0-based `row`, `column`.
    public subscript(row: Int, column: Int) -> CharacterCode {
        get { codes[row * size.columns + column] }
        set { codes[row * size.columns + column] = newValue }
    }

    /// The rows of codes.
    public var rows: [[CharacterCode]] {
        (0..<size.rows).map { r in Array(codes[(r * size.columns)..<((r + 1) * size.columns)]) }
    }

    /// The rows as integers, as the Vestaboard APIs exchange them.
    public var codeRows: [[Int]] { rows.map { $0.map { Int($0.rawValue) } } }
}

/// A board that cannot be made from what was given.
public struct BoardError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong with what was given.
    public var description: String
    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}

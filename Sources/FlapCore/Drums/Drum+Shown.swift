extension Drum {
    /// `board` as modules of this drum show it: each code the drum lacks replaced by its
    /// fallback (``flap(for:)``), and one warning a character lacked, naming it, where it first
    /// is, and what shows instead ("the rs485 drum has no ° (row 1, column 3): shown as O"), so
    /// a message is never changed silently. Flap 62 is named as `board` draws it.
    public func shown(_ board: Board) -> (board: Board, warnings: [String]) {
        var shown = board
        var warned: Set<CharacterCode> = []
        var warnings: [String] = []
        for row in 0..<board.size.rows {
            for column in 0..<board.size.columns {
                let code = board[row, column]
                let (index, fellBack) = flap(for: code)
                guard fellBack else { continue }
                shown[row, column] = codes[index]
                if warned.insert(code).inserted {
                    warnings.append(
                        "the \(name) drum has no \(Self.named(code, board.flap62)) (row \(row + 1), column \(column + 1)): shown as \(Self.named(codes[index], board.flap62))"
                    )
                }
            }
        }
        return (shown, warnings)
    }

    /// Whether a module of this drum has a flap for code 62 (`°` or `♥`).
    public var hasFlap62: Bool { index(of: .degree) != nil }

    /// A code as a person reads it: `°`, `red`, `blank`.
    static func named(_ code: CharacterCode, _ flap62: Flap62) -> String {
        if let colour = code.colour { return colour.name }
        if code == .blank { return "blank" }
        return flap62.character(code).map(String.init) ?? "\(code)"
    }
}

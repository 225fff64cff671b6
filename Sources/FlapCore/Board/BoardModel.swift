/// Which Vestaboard a board is drawn as. A Note (3×15) has a heart on flap 62, where a Flagship
/// (6×22) has a degree sign; a board of any other size has the Flagship's flaps. The size says
/// the model, as on Vestaboard's own boards, so everything that draws a board knows it.
public enum BoardModel: String, Sendable, CaseIterable {
    case flagship
    case note

    /// Its size: 3×15 for a Note, 6×22 for a Flagship.
    public var size: BoardSize { self == .note ? .note : .flagship }

    /// The character `code` shows on this model (nil for a colour chip).
    public func character(_ code: CharacterCode) -> Character? {
        self == .note && code == .degree ? "♥" : code.character
    }

    /// The character a code is drawn as in plain text: a colour chip as its letter.
    public func symbol(_ code: CharacterCode) -> Character {
        code.colour?.letter ?? character(code)!
    }

    /// Each row of `board` as plain text (colour chips as their letters).
    public func lines(of board: Board) -> [String] {
        board.rows.map { String($0.map(symbol)) }
    }
}

extension BoardSize {
    /// The model a board of this size is: a Note at 3×15, else a Flagship.
    public var model: BoardModel { self == .note ? .note : .flagship }
}

extension Board {
    /// Each row as plain text, as this board's model shows it (colour chips as their letters).
    public var lines: [String] { size.model.lines(of: self) }
}

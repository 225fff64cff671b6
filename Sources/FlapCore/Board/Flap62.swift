/// What flap 62 of a Vestaboard drum shows. Vestaboard changed it: the Note and Flagships built
/// from 2026 have a heart there, older Flagships a degree sign. Code 62 is one code either way,
/// so whatever draws a board, or lays text out for it, has to know which the board has.
public enum Flap62: String, Sendable, Hashable, CaseIterable, Codable {
    case heart
    case degree

    /// The flap 62 a board of `size` has when nothing says otherwise: a heart at a Note's 3×15,
    /// a degree sign at any other size (older Flagships, and every DIY board with Vestaboard's
    /// codes).
    public init(defaultFor size: BoardSize) {
        self = size == .note ? .heart : .degree
    }

    /// The character `code` shows on such a board (nil for a colour chip).
    public func character(_ code: CharacterCode) -> Character? {
        self == .heart && code == .degree ? "♥" : code.character
    }

    /// The character a code is drawn as in plain text: a colour chip as its letter.
    public func symbol(_ code: CharacterCode) -> Character {
        code.colour?.letter ?? character(code) ?? " "
    }

    /// Each row of `board` as plain text (colour chips as their letters).
    public func lines(of board: Board) -> [String] {
        board.rows.map { String($0.map(symbol)) }
    }
}

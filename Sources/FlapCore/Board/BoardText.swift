/// A board as text for people: a framed grid of characters, colour chips as their letters
/// (r o y g b p w k, f for filled) or, with ANSI, as coloured cells.
public enum BoardText {
    /// The board framed with box-drawing lines; colour chips as lowercase letters, or, with
    /// `colour` (a terminal that shows colour), as cells of their colour.
    public static func plain(_ board: Board, colour: Bool = false) -> String {
        let bar = String(repeating: "─", count: board.size.columns)
        var lines = ["┌" + bar + "┐"]
        for row in board.rows {
            lines.append("│" + row.map { code in colour ? chipCell(code, board.flap62) : String(board.flap62.symbol(code)) }.joined() + "│")
        }
        lines.append("└" + bar + "┘")
        return lines.joined(separator: "\n")
    }

    /// The board in true colour: each module a dark cell with a light character, chips filled.
    public static func ansi(_ board: Board) -> String {
        var out = ""
        for row in board.rows {
            for code in row { out += ansiCell(code, flap62: board.flap62) }
            out += "\u{1B}[0m\n"
        }
        return out
    }

    /// The board as ANSI rows, modules whose flap is falling dimmed (`moving`, row-major).
    public static func ansi(_ board: Board, moving: [Bool]) -> String {
        var out = ""
        for r in 0..<board.size.rows {
            for c in 0..<board.size.columns {
                let i = r * board.size.columns + c
                out += ansiCell(board.codes[i], flap62: board.flap62, dimmed: i < moving.count && moving[i])
            }
            out += "\u{1B}[0m\n"
        }
        return out
    }

    /// One module as a two-column ANSI cell.
    public static func ansiCell(_ code: CharacterCode, flap62: Flap62 = .degree, dimmed: Bool = false) -> String {
        if let colour = code.colour {
            let (r, g, b) = colour == .black ? (24, 24, 24) : (Int(colour.rgb.red), Int(colour.rgb.green), Int(colour.rgb.blue))
            return "\u{1B}[48;2;\(r);\(g);\(b)m  "
        }
        let fg = dimmed ? "150;150;150" : "240;240;240"
        return "\u{1B}[48;2;24;24;24;38;2;\(fg)m\(flap62.symbol(code)) "
    }

    /// A chip as one cell of its colour (the rest as their character).
    static func chipCell(_ code: CharacterCode, _ flap62: Flap62) -> String {
        guard let colour = code.colour else { return String(flap62.symbol(code)) }
        let (r, g, b) = colour == .black ? (24, 24, 24) : (Int(colour.rgb.red), Int(colour.rgb.green), Int(colour.rgb.blue))
        return "\u{1B}[48;2;\(r);\(g);\(b)m \u{1B}[0m"
    }

    /// The character a code is drawn as in plain text, flap 62 as a degree sign
    /// (``Flap62/symbol(_:)`` for a board's own).
    public static func symbol(_ code: CharacterCode) -> Character {
        Flap62.degree.symbol(code)
    }
}

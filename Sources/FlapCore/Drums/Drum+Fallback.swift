/// What a module shows for a code its drum lacks.
///
/// The fallbacks, tried in order until the drum has one (blank when none):
///
/// | code | falls back to |
/// |---|---|
/// | a colour | the nearest colour on the drum by hue (white ↔ filled, red ↔ orange ↔ yellow, green ↔ blue ↔ violet), else blank |
/// | black | blank (a black chip is an unlit module) |
/// | `°` | `O` |
/// | `!` `?` `:` | `.` |
/// | `;` | `,` then `.` |
/// | `"` | `'` |
/// | `-` `+` `=` `/` | `-`, else blank |
/// | `0` | `O`; `1` → `I`; `5` → `S`; `8` → `B`, and back (`O` → `0`, …) |
/// | anything else | blank |
extension Drum {
    /// The flap for `code`, falling back as the table above says; `fellBack` is true when the
    /// drum lacked `code`.
    public func flap(for code: CharacterCode) -> (index: Int, fellBack: Bool) {
        if let i = index(of: code) { return (i, false) }
        for candidate in Drum.fallbacks(for: code) {
            if let i = index(of: candidate) { return (i, true) }
        }
        return (0, true)
    }

    static func fallbacks(for code: CharacterCode) -> [CharacterCode] {
        func c(_ text: String) -> [CharacterCode] { text.unicodeScalars.compactMap { CharacterCode(character: $0) } }
        if let colour = code.colour {
            let order: [Colour] =
                switch colour {
                case .red: [.orange, .violet, .yellow]
                case .orange: [.red, .yellow]
                case .yellow: [.orange, .white, .green]
                case .green: [.blue, .yellow]
                case .blue: [.violet, .green]
                case .violet: [.blue, .red]
                case .white: [.filled, .yellow]
                case .filled: [.white, .yellow]
                case .black: []
                }
            return order.map(\.code)
        }
        switch code.character {
        case "°": return c("O0")
        case "!", "?", ":": return c(".")
        case ";": return c(",.")
        case "\"": return c("'")
        case "+", "=", "/": return c("-")
        case "0": return c("O")
        case "1": return c("I")
        case "5": return c("S")
        case "8": return c("B")
        case "O": return c("0")
        case "I": return c("1")
        case "S": return c("5")
        case "B": return c("8")
        default: return []
        }
    }
}

/// The colour chips, codes 63–71.
public enum Colour: UInt8, CaseIterable, Sendable {
    case red = 63, orange, yellow, green, blue, violet, white, black, filled

    /// The name used in messages' `pattern` rows and in configuration.
    public var name: String {
        switch self {
        case .red: "red"
        case .orange: "orange"
        case .yellow: "yellow"
        case .green: "green"
        case .blue: "blue"
        case .violet: "violet"
        case .white: "white"
        case .black: "black"
        case .filled: "filled"
        }
    }

    /// The lowercase letter that stands for this colour in drum strings and plain-text boards
    /// (the letters the Chainlink firmware uses; `f` for filled, `k` for black).
    public var letter: Character {
        switch self {
        case .red: "r"
        case .orange: "o"
        case .yellow: "y"
        case .green: "g"
        case .blue: "b"
        case .violet: "p"
        case .white: "w"
        case .black: "k"
        case .filled: "f"
        }
    }

    /// The colour a drum-string or board letter stands for.
    public init?(letter: Character) {
        guard let colour = Colour.allCases.first(where: { $0.letter == letter }) else { return nil }
        self = colour
    }

    /// The chip's code.
    public var code: CharacterCode { CharacterCode(unchecked: rawValue) }

    /// 24-bit RGB for renderers.
    public var rgb: (red: UInt8, green: UInt8, blue: UInt8) {
        switch self {
        case .red: (218, 41, 28)
        case .orange: (255, 117, 0)
        case .yellow: (255, 184, 28)
        case .green: (0, 154, 68)
        case .blue: (0, 133, 202)
        case .violet: (112, 47, 138)
        case .white: (255, 255, 255)
        case .black: (0, 0, 0)
        case .filled: (255, 255, 255)
        }
    }
}

/// Where text sits within a row.
public enum HorizontalAlignment: String, CaseIterable, Sendable, Codable {
    case left, center, right
    /// Words spread so the row fills its width; a paragraph's last row and single words stay left.
    case justified
}

/// What layout does with a character the board cannot show and nothing stands in for.
public enum UnsupportedCharacters: String, CaseIterable, Sendable, Codable {
    /// The text is refused, naming the character and where it is.
    case refuse
    /// The character is shown as a blank, or as `?` where a blank would split a word, and a
    /// warning says so.
    case replace
}

/// Where the rows sit on the board when there are fewer than it has.
public enum VerticalAlignment: String, CaseIterable, Sendable, Codable {
    case top, middle, bottom
}

/// How text becomes rows: the options of vesta's `encode_text`, plus board size and substitutions.
public struct LayoutOptions: Sendable, Equatable {
    /// Horizontal alignment of each row. Default left.
    public var align: HorizontalAlignment = .left
    /// Vertical alignment within `maxRows`; nil is vesta's `None`: never add rows.
    public var valign: VerticalAlignment? = .top
    /// Columns kept free of text on the left and right (filled with `fill`). Default 0.
    public var margin = 0
    /// The code for space that text does not cover. Default blank.
    public var fill: CharacterCode = .blank
    /// Codes at which a long line may be broken (the breaking code is dropped). Default blank.
    public var breaks: Set<CharacterCode> {
        get { breakMask.codes }
        set { breakMask = CodeMask(newValue) }
    }
    /// `breaks` as it is kept: options are copied for every layout, and a set would be counted.
    var breakMask = CodeMask([.blank])
    /// Rows on the board; text beyond is cut with a warning. Below 1: as many rows as the text needs.
    public var maxRows = BoardSize.flagship.rows
    /// Columns of each row. Default 22.
    public var columns = BoardSize.flagship.columns
    /// Replace characters the board lacks (é → E, “ → ", 🟥 → red) instead of rejecting them.
    public var substitutions = true
    /// What a character with no substitution does: refuse the text (vesta's behaviour), or
    /// stand as a blank, or `?` inside a word, with a warning.
    public var unsupported = UnsupportedCharacters.refuse
    /// What the board's flap 62 shows. A heart: ❤️ and ♥ become 62 (instead of a red tile) and
    /// `°` is not shown, so `20°C` never shows a heart. A degree sign: `°` is 62, as in vesta.
    public var flap62 = Flap62.degree

    /// A Flagship's defaults: centred, no margin, nothing cut, unsupported characters refused.
    public init() {}

    /// Options for a board of `size`.
    public init(size: BoardSize) {
        maxRows = size.rows
        columns = size.columns
    }
}

/// Rows of codes with what layout had to change to get them.
public struct LaidOutText: Sendable, Equatable {
    /// The rows, each `columns` codes long (except from ``TextLayout/encode(_:substitutions:)``).
    public var rows: [[CharacterCode]]
    /// Substitutions made and rows cut, in the order they happened.
    public var warnings: [LayoutWarning]
}

/// Text to codes, compatible with the Python `vesta` library's `encode`, `encode_row` and
/// `encode_text`: for text and options vesta accepts, the same rows; where vesta fails, a
/// ``LayoutError`` with vesta's position and reason (and a clear error where vesta loops or
/// crashes, as with a margin that leaves no room).
public enum TextLayout {
    /// vesta's `encode`: the codes of `text` as one unbounded row.
    public static func encode(_ text: String, substitutions: Bool = false) throws(LayoutError) -> LaidOutText {
        var codes: [CharacterCode] = []
        var warnings: [LayoutWarning] = []
        try TextEncoder(substitutions: substitutions)
            .encode(ArraySlice(text.unicodeScalars), lineNumber: nil, into: &codes, warnings: &warnings)
        return LaidOutText(rows: [codes], warnings: warnings)
    }

    /// vesta's `encode_row`: one row of `columns` codes, aligned, or an error when the text is longer.
    public static func encodeRow(
        _ text: String, align: HorizontalAlignment = .left, fill: CharacterCode = .blank,
        columns: Int = BoardSize.flagship.columns, substitutions: Bool = false
    ) throws(LayoutError) -> LaidOutText {
        try requireColumns(columns)
        var encoded = try encode(text, substitutions: substitutions)
        let codes = encoded.rows[0]
        guard codes.count <= columns else {
            let repr = PythonText.repr(Array(text.unicodeScalars))
            throw LayoutError(reason: "\(repr) results in \(codes.count) characters (max \(columns))")
        }
        let shape = RowShape(columns: columns, margin: 0, align: align, fill: fill)
        encoded.rows = [try shape.format(codes[...], endsParagraph: true, lineNumber: nil)]
        return encoded
    }

    /// vesta's `encode_text`: lines broken at `breaks` to fit, aligned, padded or cut to `maxRows`.
    public static func encodeText(_ text: String, options: LayoutOptions = LayoutOptions()) throws(LayoutError) -> LaidOutText {
        try requireColumns(options.columns)
        let width = options.columns - 2 * options.margin
        let shape = RowShape(columns: options.columns, margin: options.margin, align: options.align, fill: options.fill)
        let encoder = TextEncoder(substitutions: options.substitutions)
        let breaks = CodeMask(options.breaks)
        var rows: [[CharacterCode]] = []
        var warnings: [LayoutWarning] = []

        /// Breaks one line's codes into rows of the width and shapes them.
        func place(_ codes: ArraySlice<CharacterCode>, lineNumber: Int) throws(LayoutError) {
            // vesta loops forever (width 0) or fails an assertion (width < 0) here.
            guard width > 0 || (width == 0 && codes.isEmpty) else {
                throw shape.noRoomError(lineNumber: lineNumber)
            }
            var rest = codes
            while rest.count > width {
                let (end, resume) = breakPoint(in: rest, width: width, breaks: breaks)
                rows.append(try shape.format(rest.prefix(end), endsParagraph: false, lineNumber: lineNumber))
                rest = rest.dropFirst(resume)
            }
            rows.append(try shape.format(rest, endsParagraph: true, lineNumber: lineNumber))
        }

        if let ascii = ASCIIText.codes(of: text) {
            var start = 0
            for (index, end) in ascii.lineEnds.enumerated() {
                try place(ascii.codes[start..<end], lineNumber: index + 1)
                start = end
            }
        } else {
            var codes: [CharacterCode] = []
            for (index, line) in PythonText.splitLines(Array(text.unicodeScalars)).enumerated() {
                codes.removeAll(keepingCapacity: true)
                try encoder.encode(line, lineNumber: index + 1, into: &codes, warnings: &warnings)
                try place(codes[...], lineNumber: index + 1)
            }
        }
        return LaidOutText(rows: fitRows(rows, options: options, warnings: &warnings), warnings: warnings)
    }

    /// Where to end a row that is too long, and where the rest resumes: the last break code
    /// that keeps the row within `width` (dropped), else a hard break at `width`.
    static func breakPoint(
        in line: ArraySlice<CharacterCode>, width: Int, breaks: CodeMask
    ) -> (end: Int, resume: Int) {
        let base = line.startIndex
        var position = min(line.count, width)
        while position > 0 {
            if breaks.contains(line[base + position]) { return (position, position + 1) }
            position -= 1
        }
        let end = min(line.count, width)
        return (end, end)
    }

    /// Pads to `maxRows` as `valign` says, or cuts the rows beyond it with a warning.
    static func fitRows(
        _ rows: consuming [[CharacterCode]], options: LayoutOptions, warnings: inout [LayoutWarning]
    ) -> [[CharacterCode]] {
        let maxRows = options.maxRows
        guard maxRows >= 1 else { return rows }
        if rows.count < maxRows, let valign = options.valign {
            let empty = [CharacterCode](repeating: options.fill, count: options.columns)
            let missing = maxRows - rows.count
            let above = switch valign {
            case .top: 0
            case .bottom: missing
            case .middle: missing / 2
            }
            // In place: the rows are moved along, not copied (and retained) into a new array.
            rows.reserveCapacity(maxRows)
            rows.insert(contentsOf: repeatElement(empty, count: above), at: 0)
            rows.append(contentsOf: repeatElement(empty, count: missing - above))
            return rows
        }
        if rows.count > maxRows {
            let cut = maxRows + 1 == rows.count ? "row \(rows.count) was" : "rows \(maxRows + 1)–\(rows.count) were"
            warnings.append(LayoutWarning(text: "the text needs \(rows.count) rows and the board shows \(maxRows): \(cut) cut"))
            return Array(rows.prefix(maxRows))
        }
        return rows
    }

    static func requireColumns(_ columns: Int) throws(LayoutError) {
        guard columns >= 1 else { throw LayoutError(reason: "columns must be at least 1, not \(columns)") }
    }
}

/// A set of codes as a bit mask: looking a code up costs a shift, not a hash.
struct CodeMask {
    private var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    init(_ codes: Set<CharacterCode>) {
        for code in codes {
            let bit = UInt64(1) << UInt64(code.rawValue & 63)
            switch code.rawValue >> 6 {
            case 0: words.0 |= bit
            case 1: words.1 |= bit
            case 2: words.2 |= bit
            default: words.3 |= bit
            }
        }
    }

    func contains(_ code: CharacterCode) -> Bool {
        let word = switch code.rawValue >> 6 {
        case 0: words.0
        case 1: words.1
        case 2: words.2
        default: words.3
        }
        return word & (UInt64(1) << UInt64(code.rawValue & 63)) != 0
    }
}

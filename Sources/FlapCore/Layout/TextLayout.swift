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
        return LaidOutText(codes: codes, columns: codes.count, rowCount: 1, warnings: warnings)
    }

    /// vesta's `encode_row`: one row of `columns` codes, aligned, or an error when the text is longer.
    public static func encodeRow(
        _ text: String, align: HorizontalAlignment = .left, fill: CharacterCode = .blank,
        columns: Int = BoardSize.flagship.columns, substitutions: Bool = false
    ) throws(LayoutError) -> LaidOutText {
        try requireColumns(columns)
        let encoded = try encode(text, substitutions: substitutions)
        let codes = encoded.codes
        guard codes.count <= columns else {
            let repr = PythonText.repr(Array(text.unicodeScalars))
            throw LayoutError(reason: "\(repr) results in \(codes.count) characters (max \(columns))")
        }
        let shape = RowShape(columns: columns, margin: 0, align: align, fill: fill)
        let row = try shape.format(codes[...], endsParagraph: true, lineNumber: nil)
        return LaidOutText(codes: row, columns: columns, rowCount: 1, warnings: encoded.warnings)
    }

    /// vesta's `encode_text`: lines broken at `breaks` to fit, aligned, padded or cut to `maxRows`.
    public static func encodeText(_ text: String, options: LayoutOptions = LayoutOptions()) throws(LayoutError) -> LaidOutText {
        try requireSize(options)
        var grid = RowGrid(options: options)
        // Plain ASCII first; where it gives up (or finds a mistake, which the general path then
        // words), the general path lays the whole text out again. It reads ° as code 62, which
        // on a board whose flap 62 is a heart is the general path's to leave out.
        let plain = options.flap62 == .degree || !text.unicodeScalars.contains("°")
        if !plain || !ASCIIText.readLines(of: text, into: &grid) {
            grid = RowGrid(options: options)
            let encoder = TextEncoder(options: options)
            var codes: [CharacterCode] = []
            for (index, line) in PythonText.splitLines(Array(text.unicodeScalars)).enumerated() {
                codes.removeAll(keepingCapacity: true)
                try encoder.encode(line, lineNumber: index + 1, into: &codes, warnings: &grid.warnings)
                try codes.withUnsafeBufferPointer { line throws(LayoutError) in try grid.place(line, lineNumber: index + 1) }
            }
        }
        return grid.finish()
    }

    /// The most codes one layout may make (a wall of a million modules): more is a mistake, and
    /// asked for, it would exhaust memory before saying so.
    public static let maxCodes = 1_000_000

    static func requireColumns(_ columns: Int) throws(LayoutError) {
        guard columns >= 1 else { throw LayoutError(reason: "columns must be at least 1, not \(columns)") }
        guard columns <= maxCodes else { throw LayoutError(reason: "columns must be at most \(maxCodes), not \(columns)") }
    }

    /// Columns in range, and, where rows are padded to `maxRows`, a board of at most ``maxCodes``.
    static func requireSize(_ options: LayoutOptions) throws(LayoutError) {
        try requireColumns(options.columns)
        guard options.maxRows >= 1, options.valign != nil else { return }
        let (codes, overflow) = options.maxRows.multipliedReportingOverflow(by: options.columns)
        guard !overflow, codes <= maxCodes else {
            throw LayoutError(reason: "\(options.maxRows) rows of \(options.columns) columns are more than the \(maxCodes) codes a layout may have")
        }
    }
}

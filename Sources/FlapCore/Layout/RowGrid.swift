/// The rows of one `encodeText` layout, written into one buffer as they are made: lines broken
/// at break codes to fit the width, each row placed by its ``RowShape``, then the rows padded or
/// cut to `maxRows`.
///
/// When rows are padded to `maxRows`, the buffer starts as `maxRows` rows of fill, so a row costs
/// only the copy of its text; otherwise it grows a row of fill at a time. Rows beyond `maxRows`
/// are checked and counted but not kept (vesta cuts them, and says how many).
struct RowGrid: LineSink {
    private let shape: RowShape
    private let width: Int
    private let breaks: CodeMask
    private let maxRows: Int
    private let valign: VerticalAlignment?
    private(set) var codes: [CharacterCode]
    private(set) var rowCount = 0
    var warnings: [LayoutWarning] = []
    /// Lines placed so far.
    private var lineNumber = 0

    init(options: LayoutOptions) {
        shape = RowShape(columns: options.columns, margin: options.margin, align: options.align, fill: options.fill)
        width = options.columns - 2 * options.margin
        breaks = options.breakMask
        maxRows = options.maxRows
        valign = options.valign
        // `TextLayout.requireSize` has checked that this is small enough.
        let count = maxRows >= 1 && valign != nil ? maxRows * options.columns : 0, fill = options.fill
        codes = [CharacterCode](repeating: fill, count: count)
    }

    /// Breaks one line's codes into rows of the width and writes them.
    mutating func place(_ line: UnsafeBufferPointer<CharacterCode>, lineNumber: Int) throws(LayoutError) {
        // vesta loops forever (width 0) or fails an assertion (width < 0) here.
        guard width > 0 || (width == 0 && line.isEmpty) else {
            throw shape.noRoomError(lineNumber: lineNumber)
        }
        var start = 0
        while line.count - start > width {
            // The last break code that keeps the row within the width (dropped), else a hard break.
            var end = start + width, resume = end
            var position = end
            while position > start {
                if breaks.contains(line[position]) {
                    (end, resume) = (position, position + 1)
                    break
                }
                position -= 1
            }
            try write(UnsafeBufferPointer(rebasing: line[start..<end]), endsParagraph: false, lineNumber: lineNumber)
            start = resume
        }
        try write(UnsafeBufferPointer(rebasing: line[start...]), endsParagraph: true, lineNumber: lineNumber)
    }

    /// The next line, placed; false if it cannot be (the general path then says why).
    mutating func take(_ line: UnsafeBufferPointer<CharacterCode>) -> Bool {
        lineNumber += 1
        do { try place(line, lineNumber: lineNumber) } catch { return false }
        return true
    }

    /// One row, placed as its shape says.
    private mutating func write(
        _ text: UnsafeBufferPointer<CharacterCode>, endsParagraph: Bool, lineNumber: Int
    ) throws(LayoutError) {
        let columns = shape.columns
        // With a margin of 0 or more, a row no wider than `width` always fits, so all that is left
        // is where its text starts; justified rows that widen their gaps, and negative margins,
        // go through the shape's general formatting.
        guard shape.margin >= 0, shape.align != .justified || endsParagraph else {
            let row = try shape.format(ArraySlice(text), endsParagraph: endsParagraph, lineNumber: lineNumber)
            return keep { out in _ = out.initialize(fromContentsOf: row) }
        }
        let offset =
            switch shape.align {
            case .left, .justified: shape.margin
            case .right: columns - shape.margin - text.count
            case .center: (columns - text.count) / 2
            }
        keep { out in _ = out[offset..<(offset + text.count)].initialize(fromContentsOf: text) }
    }

    /// Counts a row and, unless it is beyond `maxRows`, lets `fill` write it into its place
    /// (given as a buffer of `columns` codes, already holding the fill code).
    private mutating func keep(_ fill: (UnsafeMutableBufferPointer<CharacterCode>) -> Void) {
        defer { rowCount += 1 }
        guard maxRows < 1 || rowCount < maxRows else { return }
        let columns = shape.columns, start = rowCount * columns
        if codes.count < start + columns { codes.append(contentsOf: repeatElement(shape.fill, count: columns)) }
        codes.withUnsafeMutableBufferPointer { all in fill(UnsafeMutableBufferPointer(rebasing: all[start..<(start + columns)])) }
    }

    /// The rows padded to `maxRows` as `valign` says, or cut to it with a warning.
    consuming func finish() -> LaidOutText {
        let columns = shape.columns
        if maxRows >= 1, rowCount < maxRows {
            if let valign {
                let missing = maxRows - rowCount
                let above =
                    switch valign {
                    case .top: 0
                    case .bottom: missing
                    case .middle: missing / 2
                    }
                if above > 0 {
                    let fill = shape.fill, used = rowCount * columns, shift = above * columns
                    codes.withUnsafeMutableBufferPointer { all in
                        guard let base = all.baseAddress else { return }
                        (base + shift).update(from: base, count: used)
                        for i in 0..<min(shift, used) { base[i] = fill }
                    }
                }
                rowCount = maxRows
            }
        } else if maxRows >= 1, rowCount > maxRows {
            let cut = maxRows + 1 == rowCount ? "row \(rowCount) was" : "rows \(maxRows + 1)–\(rowCount) were"
            warnings.append(LayoutWarning(text: "the text needs \(rowCount) rows and the board shows \(maxRows): \(cut) cut"))
            rowCount = maxRows
        }
        return LaidOutText(codes: codes, columns: columns, rowCount: rowCount, warnings: warnings)
    }
}

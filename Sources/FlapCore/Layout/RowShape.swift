/// How one row of codes is placed within the board's width: margins, alignment, fill.
struct RowShape {
    var columns: Int
    var margin: Int
    var align: HorizontalAlignment
    var fill: CharacterCode

    /// The row padded to exactly `columns` codes. `endsParagraph` marks the last row made from
    /// a line of text, which justified alignment leaves ragged.
    func format(
        _ codes: ArraySlice<CharacterCode>, endsParagraph: Bool, lineNumber: Int?
    ) throws(LayoutError) -> [CharacterCode] {
        var row: [CharacterCode] = []
        row.reserveCapacity(columns)
        // Padding counts below zero add nothing, as Python's `[x] * -1` does.
        func pad(_ count: Int) { if count > 0 { row.append(contentsOf: repeatElement(fill, count: count)) } }
        switch align {
        case .left:
            pad(margin); row += codes; pad(columns - codes.count - margin)
        case .right:
            pad(columns - codes.count - margin); row += codes; pad(margin)
        case .center:
            let free = columns - codes.count
            let left = free >= 0 ? free / 2 : (free - 1) / 2
            pad(left); row += codes; pad(free - left)
        case .justified:
            let content = endsParagraph ? Array(codes) : justify(codes)
            pad(margin); row += content; pad(columns - content.count - margin)
        }
        // vesta asserts here; a row of any other width means the margin left no room.
        guard row.count == columns else { throw noRoomError(lineNumber: lineNumber) }
        return row
    }

    /// Widens the gaps between words (runs of blanks) so the row spans the width between margins.
    func justify(_ codes: ArraySlice<CharacterCode>) -> [CharacterCode] {
        let words = codes.split(separator: .blank, omittingEmptySubsequences: true)
        let width = columns - 2 * margin
        let letters = words.reduce(0) { $0 + $1.count }
        guard words.count > 1, letters + words.count - 1 <= width else { return Array(codes) }
        let gaps = words.count - 1
        let spaces = width - letters
        var row: [CharacterCode] = []
        for (index, word) in words.enumerated() {
            row += word
            if index < gaps {
                let gap = spaces / gaps + (index < spaces % gaps ? 1 : 0)
                row += repeatElement(CharacterCode.blank, count: gap)
            }
        }
        return row
    }

    func noRoomError(lineNumber: Int?) -> LayoutError {
        let widest = max(0, (columns - 1) / 2)
        return LayoutError(
            line: lineNumber,
            reason: "margin \(margin) leaves no room for text on a \(columns)-column row (use 0 to \(widest))")
    }
}

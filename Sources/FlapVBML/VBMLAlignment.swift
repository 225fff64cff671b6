/// Where a component's lines go in it, as Vestaboard's renderer places them. A cell is nil where
/// the renderer had no code (it shows blank).
enum VBMLAlignment {
    typealias Row = [Int?]

    /// `align`: top, bottom, center (also `absolute` and anything else) or justified (centre,
    /// an odd row over).
    static func vertical(_ rows: [Row], height: Int, align: VBMLStyle.Align) -> [Row] {
        switch align {
        case .top: return rows
        case .bottom:
            let reversed = Array(rows.reversed())
            return (0..<height).map { index in
                let from = height - 1 - index
                return reversed.indices.contains(from) ? reversed[from] : []
            }
        case .justified, .center:
            let free = Double(height - rows.count) / 2
            let top = max(Int(align == .justified ? free.rounded(.up) : free.rounded(.down)), 0)
            return (0..<height).map { rows.indices.contains($0 - top) ? rows[$0 - top] : [] }
        }
    }

    /// `justify`: left, right, center or justified (every row moved by the same amount, so
    /// their left edges line up, the longest centred).
    static func horizontal(_ rows: [Row], width: Int, justify: VBMLStyle.Justify) -> [Row] {
        switch justify {
        case .left:
            return rows.map(withoutLeadingBlanks)
        case .right:
            return rows.map { row in
                let kept = withoutLeadingBlanks(Array(row.reversed()))
                return (0..<width).map { index in
                    let from = width - 1 - index
                    return kept.indices.contains(from) ? blankIfNone(kept[from]) : 0
                }
            }
        case .justified:
            let trimmed = rows.map(withoutLeadingBlanks)
            let longest = (trimmed.map(\.count).max() ?? 0) - 1
            let right = Int((Double(width - longest) / 2).rounded(.down))
            let left = width - (longest + right + 1)
            let padding = min(right, left)
            return trimmed.map { row in
                (0..<width).map { row.indices.contains($0 - padding) ? blankIfNone(row[$0 - padding]) : 0 }
            }
        case .center:
            return rows.map { row in
                let kept = Array(withoutLeadingBlanks(Array(row.reversed())).reversed())
                let left = Int((Double(width - kept.count) / 2).rounded(.down))
                return (0..<width).map { kept.indices.contains($0 - left) ? blankIfNone(kept[$0 - left]) : 0 }
            }
        }
    }

    /// A row without its leading blanks (a missing code is not a blank here, as there).
    static func withoutLeadingBlanks(_ row: Row) -> Row {
        Array(row.drop { $0 == 0 })
    }

    /// JavaScript's `code || 0`.
    static func blankIfNone(_ code: Int?) -> Int? { code ?? 0 }
}

extension Drum {
    /// Module `index`'s drum (row-major): its own from `moduleDrums` where given, else this one.
    public func drum(ofModule index: Int, in moduleDrums: [Drum]?) -> Drum {
        guard let moduleDrums, index < moduleDrums.count else { return self }
        return moduleDrums[index]
    }

    /// `board` as modules show it when some carry flaps of their own (`moduleDrums`, row-major;
    /// nil: every module this drum): each code a module lacks replaced by its fallback, with one
    /// warning a character and drum. A module whose flaps are the panel's is warned about as
    /// ``shown(_:)`` does; one with its own is named by its place ("row 1, column 2 has no ♥ on
    /// its own flaps: shown as blank"), as a household finds it on the wall.
    public func shown(_ board: Board, moduleDrums: [Drum]?) -> (board: Board, warnings: [String]) {
        guard let moduleDrums else { return shown(board) }
        var shown = board
        var warned: Set<[Int]> = []
        var warnings: [String] = []
        for row in 0..<board.size.rows {
            for column in 0..<board.size.columns {
                let index = row * board.size.columns + column
                let drum = drum(ofModule: index, in: moduleDrums)
                let code = board[row, column]
                let (flap, fellBack) = drum.flap(for: code)
                guard fellBack else { continue }
                shown[row, column] = drum.codes[flap]
                let own = drum != self
                guard warned.insert([Int(code.rawValue), own ? index : -1]).inserted else { continue }
                let lacking = Self.named(code, board.flap62), instead = Self.named(drum.codes[flap], board.flap62)
                warnings.append(
                    own
                        ? "row \(row + 1), column \(column + 1) has no \(lacking) on its own flaps: shown as \(instead)"
                        : "the \(name) drum has no \(lacking) (row \(row + 1), column \(column + 1)): shown as \(instead)")
            }
        }
        return (shown, warnings)
    }
}

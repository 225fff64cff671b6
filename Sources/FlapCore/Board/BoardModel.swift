/// Which Vestaboard a board is: a Note (3×15, a heart on flap 62) or a Flagship (6×22; a degree
/// sign on flap 62 unless the panel says its board has the newer heart).
public enum BoardModel: String, Sendable, CaseIterable {
    case flagship
    case note

    /// Its size: 3×15 for a Note, 6×22 for a Flagship.
    public var size: BoardSize { self == .note ? .note : .flagship }

    /// Whether a board of `size` is one of this model: a Flagship's 6×22; a Note's 3×15, or an
    /// array of Notes side by side (3 × 15n) or stacked (3n × 15).
    public func fits(_ size: BoardSize) -> Bool {
        guard self == .note else { return size == .flagship }
        return (size.rows == 3 && size.columns % 15 == 0) || (size.columns == 15 && size.rows % 3 == 0)
    }

    /// Flap 62 as this model has had it longest: a Note's heart, a Flagship's degree sign.
    public var flap62: Flap62 { self == .note ? .heart : .degree }
}

extension BoardSize {
    /// The model a board of this size is: a Note at 3×15, else a Flagship.
    public var model: BoardModel { self == .note ? .note : .flagship }
}

extension Board {
    /// Each row as plain text, flap 62 as this board has it (colour chips as their letters).
    public var lines: [String] { flap62.lines(of: self) }
}

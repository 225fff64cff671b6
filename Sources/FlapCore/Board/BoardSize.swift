/// Rows × columns of modules.
public struct BoardSize: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Rows of modules, top to bottom.
    public var rows: Int
    /// Modules in a row.
    public var columns: Int

    /// A board `rows` high and `columns` wide.
    public init(rows: Int, columns: Int) {
        self.rows = rows
        self.columns = columns
    }

    /// Vestaboard Flagship: 6 × 22.
    public static let flagship = BoardSize(rows: 6, columns: 22)
    /// Vestaboard Note: 3 × 15.
    public static let note = BoardSize(rows: 3, columns: 15)

    /// Number of modules.
    public var count: Int { rows * columns }

    /// `6×22`.
    public var description: String { "\(rows)×\(columns)" }

    /// A size given by name (`flagship`, `note`) or as `ROWSxCOLUMNS`.
    public init?(name: String) {
        switch name.lowercased() {
        case "flagship": self = .flagship
        case "note": self = .note
        default:
            let parts = name.lowercased().split(whereSeparator: { $0 == "x" || $0 == "×" })
            guard parts.count == 2, let r = Int(parts[0]), let c = Int(parts[1]), r > 0, c > 0 else { return nil }
            self.init(rows: r, columns: c)
        }
    }
}

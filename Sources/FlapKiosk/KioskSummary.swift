import FlapCore
import Wematch

/// The room in words, for a split-flap panel: who is here, how many are synced, the longest
/// chain, and a colour chip for each member (clusters together, a gap between them). Never
/// anyone's BPM.
public enum KioskSummary {
    /// The board for `state` on a board of `size`: as many of the lines as fit, centred; with
    /// no room, how to join one.
    public static func board(_ state: RoomState?, size: BoardSize) -> Board {
        guard let state else { return layout(size.rows >= 2 ? ["NO ROOM", "JOIN WITH A CODE"] : ["NO ROOM"], size: size) }
        let counts = "\(state.members.count) HERE  \(state.syncedCount) SYNCED"
        let chain = state.longestChain > 1 ? "LONGEST CHAIN \(state.longestChain)" : "NO CHAIN YET"
        let room = state.room.uppercased()
        let lines: [String]
        switch size.rows {
        case ...1: lines = ["\(state.members.count)/\(state.syncedCount)/\(state.longestChain)"]
        case 2: lines = [counts, chips(state, columns: size.columns)]
        case 3: lines = [counts, chain, chips(state, columns: size.columns)]
        default: lines = [room, counts, chain, chips(state, columns: size.columns)]
        }
        return layout(lines, size: size)
    }

    private static func layout(_ lines: [String], size: BoardSize) -> Board {
        var options = LayoutOptions(size: size)
        options.align = .center
        options.valign = .middle
        // Each line on its own row; a line too long for the board is shortened, never wrapped into the next.
        let fitted = lines.map { fit($0, columns: size.columns) }
        guard let laid = try? TextLayout.encodeText(fitted.joined(separator: "\n"), options: options),
            let board = laid.board
        else { return Board(size: size) }
        return board
    }

    /// The chips: members of each cluster side by side, clusters and the unsynced apart.
    static func chips(_ state: RoomState, columns: Int) -> String {
        var groups = state.clusters.map { $0.members }
        let clustered = Set(groups.joined())
        let alone = state.members.map(\.id).filter { !clustered.contains($0) }
        if !alone.isEmpty { groups.append(alone) }
        let colour = Dictionary(uniqueKeysWithValues: state.members.map { ($0.id, $0.colour) })
        var cells: [String] = []
        for group in groups {
            if !cells.isEmpty { cells.append(" ") }
            cells += group.map { "{\(chip(colour[$0] ?? "#ffffff").rawValue)}" }
        }
        return cells.prefix(columns).joined()
    }

    /// The colour chip nearest to `hex` in hue (greys and pale colours are white).
    static func chip(_ hex: String) -> Colour {
        guard let (r, g, b) = Palette.rgb(hex), let (hue, saturation) = hueAndSaturation(r, g, b), saturation > 0.25 else { return .white }
        let chips: [Colour] = [.red, .orange, .yellow, .green, .blue, .violet]
        func apart(_ chip: Colour) -> Double {
            let (cr, cg, cb) = chip.rgb
            let d = abs((hueAndSaturation(cr, cg, cb)?.hue ?? 0) - hue)
            return min(d, 360 - d)
        }
        return chips.min { apart($0) < apart($1) } ?? .white
    }

    /// Hue in degrees and saturation 0…1, nil for black.
    private static func hueAndSaturation(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> (hue: Double, saturation: Double)? {
        let (red, green, blue) = (Double(r) / 255, Double(g) / 255, Double(b) / 255)
        let top = max(red, green, blue), bottom = min(red, green, blue), span = top - bottom
        guard top > 0 else { return nil }
        guard span > 0 else { return (0, 0) }
        var hue = top == red ? (green - blue) / span : top == green ? 2 + (blue - red) / span : 4 + (red - green) / span
        hue *= 60
        if hue < 0 { hue += 360 }
        return (hue, span / top)
    }

    private static func fit(_ line: String, columns: Int) -> String {
        guard !line.contains("{"), line.count > columns else { return line }
        return String(line.replacing("  ", with: " ").prefix(columns))
    }
}

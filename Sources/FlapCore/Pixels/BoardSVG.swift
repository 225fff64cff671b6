import FlapPrimitives

/// A board as an SVG picture: the same flaps, colours and split as `BoardRenderer` draws on
/// pixels, with each character as text, so it stays sharp at any size on a dashboard.
public enum BoardSVG {
    /// A flap's face and the gap around it, in the picture's units (a 10×14 glyph's proportions).
    static let faceWidth = 24, faceHeight = 32, gap = 3, margin = 12

    /// `board` as a whole SVG document in `style`'s colours.
    public static func document(_ board: Board, style: RenderStyle = .screen) -> String {
        let width = board.size.columns * (faceWidth + gap) - gap + 2 * margin
        let height = board.size.rows * (faceHeight + gap) - gap + 2 * margin
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(width) \(height)" width="\(width)" height="\(height)" \
            role="img" aria-label="\(escaped(board.lines.joined(separator: " / ")))">
            <rect width="\(width)" height="\(height)" fill="\(hex(style.backdrop))"/>
            <g font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" font-size="24" font-weight="bold" text-anchor="middle" fill="\(hex(style.ink))">

            """
        for (row, codes) in board.rows.enumerated() {
            for (column, code) in codes.enumerated() {
                let x = margin + column * (faceWidth + gap), y = margin + row * (faceHeight + gap)
                let fill: RGB =
                    code.colour.map { $0 == .black ? style.backdrop : ($0 == .white || $0 == .filled ? style.ink : RGB($0)) } ?? style.face
                svg += "<rect x=\"\(x)\" y=\"\(y)\" width=\"\(faceWidth)\" height=\"\(faceHeight)\" rx=\"2\" fill=\"\(hex(fill))\"/>"
                if code.colour == nil, let character = board.flap62.character(code), character != " " {
                    svg += "<text x=\"\(x + faceWidth / 2)\" y=\"\(y + faceHeight - 8)\">\(escaped(String(character)))</text>"
                }
                if let hinge = style.hinge {
                    svg += "<rect x=\"\(x)\" y=\"\(y + faceHeight / 2)\" width=\"\(faceWidth)\" height=\"1\" fill=\"\(hex(hinge))\"/>"
                }
                svg += "\n"
            }
        }
        return svg + "</g>\n</svg>\n"
    }

    static func hex(_ colour: RGB) -> String {
        "#" + [colour.red, colour.green, colour.blue].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    /// Text for XML: the five characters that would end or open markup, escaped.
    static func escaped(_ text: String) -> String {
        text.escaping(["&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&apos;"])
    }
}

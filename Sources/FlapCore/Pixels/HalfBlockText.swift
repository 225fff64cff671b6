/// A picture for a terminal: two pixels a character cell, the upper half block in the top
/// pixel's colour on the bottom pixel's, in 24-bit ANSI colour.
public enum HalfBlockText {
    /// `frame` as lines of half blocks, each ending with the colours reset; pictures wider than
    /// `maximumColumns` are scaled down (every n-th pixel).
    public static func text(_ frame: PixelFrame, maximumColumns: Int = 160) -> String {
        let step = max(1, (frame.width + maximumColumns - 1) / maximumColumns)
        var out = ""
        for y in stride(from: 0, to: frame.height, by: 2 * step) {
            for x in stride(from: 0, to: frame.width, by: step) {
                let top = frame[x, y], bottom = y + step < frame.height ? frame[x, y + step] : .black
                out += "\u{1B}[38;2;\(top.red);\(top.green);\(top.blue)m\u{1B}[48;2;\(bottom.red);\(bottom.green);\(bottom.blue)m▀"
            }
            out += "\u{1B}[0m\n"
        }
        return out
    }
}

/// A bitmap font: one glyph of `width` × `height` pixels for every Vestaboard character.
public struct GlyphFont: Sendable {
    /// Its name, as `RenderStyle` and the renderer's cache call it.
    public let name: String
    /// A glyph's width in pixels.
    public let width: Int
    /// A glyph's height in pixels.
    public let height: Int
    private let glyphs: [Character: [Bool]]

    init(name: String, width: Int, height: Int, glyphs: [Character: [Bool]]) {
        self.name = name
        self.width = width
        self.height = height
        self.glyphs = glyphs
    }

    /// The glyph of `character`, row-major (`height` rows of `width`), or nil for none.
    public func glyph(_ character: Character) -> [Bool]? { glyphs[character] }

    /// Every character it draws.
    public var characters: [Character] { Array(glyphs.keys) }

    /// The 5×7 font for small matrices.
    public static let small = GlyphFont(
        name: "5x7", width: Font5x7.width, height: Font5x7.height,
        glyphs: Font5x7.glyphs.mapValues { rows in rows.flatMap { row in row.map { $0 == "#" } } })

    /// The 10×14 font for screens and large matrices: the 5×7 drawn again at twice the size
    /// with its diagonals filled in (each pixel becomes four; a dark pixel's corner where two lit
    /// neighbours meet diagonally is lit, the Scale2x rule applied to the background only), so
    /// diagonals do not staircase while square corners stay square (D stays unlike O).
    public static let large = small.smoothedDouble(name: "10x14")

    func smoothedDouble(name: String) -> GlyphFont {
        let w = width, h = height
        var doubled: [Character: [Bool]] = [:]
        for (character, bits) in glyphs {
            func at(_ x: Int, _ y: Int) -> Bool { (0..<w).contains(x) && (0..<h).contains(y) && bits[y * w + x] }
            var out = Array(repeating: false, count: 4 * w * h)
            for y in 0..<h {
                for x in 0..<w {
                    let p = at(x, y)
                    if p {
                        for k in 0..<4 { out[(2 * y + k / 2) * 2 * w + 2 * x + k % 2] = true }
                        continue
                    }
                    let up = at(x, y - 1), right = at(x + 1, y), left = at(x - 1, y), down = at(x, y + 1)
                    let corners = [
                        left == up && left != down && up != right ? up : p,
                        up == right && up != left && right != down ? right : p,
                        down == left && down != right && left != up ? left : p,
                        right == down && right != up && down != left ? down : p
                    ]
                    for (k, lit) in corners.enumerated() { out[(2 * y + k / 2) * 2 * w + 2 * x + k % 2] = lit }
                }
            }
            doubled[character] = out
        }
        return GlyphFont(name: name, width: 2 * w, height: 2 * h, glyphs: doubled)
    }
}

/// The colours a board is drawn in.
public struct RenderStyle: Sendable, Equatable {
    /// Glyphs.
    public var ink: RGB
    /// A flap's face.
    public var face: RGB
    /// Between and around the modules.
    public var backdrop: RGB
    /// The split across the middle of each flap, on cells large enough to spare a row for it.
    public var hinge: RGB?

    /// A style of these colours.
    public init(ink: RGB, face: RGB, backdrop: RGB, hinge: RGB?) {
        self.ink = ink
        self.face = face
        self.backdrop = backdrop
        self.hinge = hinge
    }

    /// LEDs: lit glyphs on dark, nothing drawn that would light an LED for no reason.
    public static let led = RenderStyle(ink: .white, face: .black, backdrop: .black, hinge: nil)
    /// Screens and pictures: off-white glyphs on dark grey flaps with a visible split.
    public static let screen = RenderStyle(ink: RGB(238, 236, 226), face: RGB(30, 30, 32), backdrop: .black, hinge: RGB(6, 6, 6))
}

/// How a module's face sits on the canvas: the font, how much it is enlarged, the margin
/// inside the face and the gap between faces.
public struct CellGeometry: Sendable, Equatable {
    /// The font's name.
    public var fontName: String
    /// A glyph's width, before enlarging.
    public var glyphWidth: Int
    /// A glyph's height, before enlarging.
    public var glyphHeight: Int
    /// How many pixels each glyph pixel becomes, across and down.
    public var scale: Int
    /// The margin inside a face, around the glyph.
    public var padding: Int
    /// The gap between faces.
    public var gap: Int

    /// A face's width in pixels.
    public var faceWidth: Int { glyphWidth * scale + 2 * padding }
    /// A face's height in pixels.
    public var faceHeight: Int { glyphHeight * scale + 2 * padding }

    /// The pixels a board of `size` takes.
    public func extent(of size: BoardSize) -> (width: Int, height: Int) {
        (size.columns * (faceWidth + gap) - gap, size.rows * (faceHeight + gap) - gap)
    }

    init(font: GlyphFont, scale: Int, padding: Int, gap: Int) {
        fontName = font.name
        glyphWidth = font.width
        glyphHeight = font.height
        self.scale = scale
        self.padding = padding
        self.gap = gap
    }

    /// The 5×7 glyphs in 6×8 cells: the smallest board drawing there is.
    public static let smallest = CellGeometry(font: .small, scale: 1, padding: 0, gap: 1)

    /// The 10×14 font enlarged `scale` times, with a margin and gap that grow with it.
    public static func large(scale: Int) -> CellGeometry {
        CellGeometry(font: .large, scale: scale, padding: scale, gap: scale)
    }

    /// Every geometry from the smallest up: the 5×7 font, then the 10×14 one at 1×, 2×, 3×…
    /// with a margin and gap that grow with it.
    static func candidates(upTo limit: Int) -> [CellGeometry] {
        [smallest] + (1...max(1, limit)).map(large(scale:))
    }
}

/// A board that cannot be drawn on a canvas that size.
public struct RenderError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong with the geometry asked for.
    public var description: String
    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}

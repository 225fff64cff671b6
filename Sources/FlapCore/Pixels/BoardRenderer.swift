import FoundationEssentials
import Glibc

/// Draws boards, and the flip animation of a plan, into a canvas: each module a face with its
/// glyph (colour chips fill the face), the largest that fits, centred.
///
/// While a flap falls, the upper half of the face shows the next glyph's upper half (uncovered
/// as the flap leaves), the lower half still shows the current glyph's lower half, and the flap
/// itself is drawn foreshortened: first the current glyph's upper half folding down onto the
/// hinge, then the next glyph's lower half unfolding from it, darker while it is edge-on.
public struct BoardRenderer: Sendable {
    /// The board's size in modules.
    public let size: BoardSize
    /// The picture's width in pixels.
    public let width: Int
    /// The picture's height in pixels.
    public let height: Int
    /// Its colours.
    public let style: RenderStyle
    /// Where each module's face sits.
    public let geometry: CellGeometry
    private let originX: Int
    private let originY: Int
    /// Every code's face, row-major, one after another in raw code order (a code without a
    /// face, blank).
    private let faces: [RGB]

    /// A renderer for a `size` board on a `width` × `height` canvas, flap 62 drawn as `flap62`
    /// (by default as a board of that size has it); throws when even the 5×7 font does not fit,
    /// saying how many pixels the board needs.
    public init(size: BoardSize, width: Int, height: Int, style: RenderStyle = .led, flap62: Flap62? = nil) throws(RenderError) {
        let fitting = CellGeometry.candidates(upTo: max(width, height) / 14).filter {
            let extent = $0.extent(of: size)
            return extent.width <= width && extent.height <= height
        }
        guard let geometry = fitting.last else {
            let needed = CellGeometry.smallest.extent(of: size)
            throw RenderError(
                "a \(size.rows)×\(size.columns) board needs at least \(needed.width)×\(needed.height) pixels "
                    + "(5×7 glyphs with a pixel between them); this display has \(width)×\(height)")
        }
        self.size = size
        self.width = width
        self.height = height
        self.style = style
        self.geometry = geometry
        let extent = geometry.extent(of: size)
        originX = (width - extent.width) / 2
        originY = (height - extent.height) / 2
        let font: GlyphFont = geometry.fontName == GlyphFont.small.name ? .small : .large
        faces = (0...255).flatMap { raw in
            CharacterCode(raw).map { Self.face(of: $0, flap62: flap62 ?? Flap62(defaultFor: size), font: font, geometry: geometry, style: style) }
                ?? Array(repeating: style.face, count: geometry.faceWidth * geometry.faceHeight)
        }
    }

    /// The largest board of modules this canvas shows with the 5×7 font.
    public static func largestBoard(width: Int, height: Int) -> BoardSize? {
        let cell = CellGeometry.smallest
        let columns = (width + cell.gap) / (cell.faceWidth + cell.gap), rows = (height + cell.gap) / (cell.faceHeight + cell.gap)
        return rows > 0 && columns > 0 ? BoardSize(rows: rows, columns: columns) : nil
    }

    /// Draws `board` at rest.
    public func draw<C: Canvas>(_ board: Board, into canvas: inout C) {
        canvas.fill(style.backdrop)
        for row in 0..<size.rows {
            for column in 0..<size.columns { paint(ModulePicture(row: row, column: column, resting: board[row, column]), into: &canvas) }
        }
    }

    /// Draws `plan` as it looks `time` after its start; at or after its end this is exactly
    /// `draw(plan.finalBoard)`.
    public func draw<C: Canvas>(_ plan: FlipPlan, at time: Duration, into canvas: inout C) {
        canvas.fill(style.backdrop)
        for module in plan.modules { paint(picture(of: module, drum: plan.drum(of: module), at: time), into: &canvas) }
    }

    private func paint<C: Canvas>(_ picture: ModulePicture, into canvas: inout C) {
        for y in 0..<geometry.faceHeight { paint(source(ofRow: y, in: picture), at: target(of: picture, faceRow: y), into: &canvas) }
    }

    /// A module as it looks at a moment: at rest on a face, or a flap falling from one to the next.
    struct ModulePicture {
        var row: Int
        var column: Int
        var current: UInt8
        var next: UInt8
        /// Whether the flap is still above the hinge (the current upper half folding down), and
        /// how many of the half's rows it covers; nil at rest.
        var flap: (upper: Bool, rows: Int)?
        /// How bright the flap is: 1 face-on, darker edge-on.
        var shade = 1.0

        init(row: Int, column: Int, resting code: CharacterCode) {
            self.row = row
            self.column = column
            current = code.rawValue
            next = code.rawValue
        }

        init(row: Int, column: Int, falling from: CharacterCode, to: CharacterCode, progress: Double, faceHeight: Int) {
            self.row = row
            self.column = column
            current = from.rawValue
            next = to.rawValue
            let fold = cos(progress * .pi), upper = faceHeight / 2, lower = faceHeight - upper
            flap = fold > 0 ? (true, Int((Double(upper) * fold).rounded())) : (false, Int((Double(lower) * -fold).rounded()))
            shade = 0.55 + 0.45 * abs(fold)
        }
    }

    /// One pixel row of a module's face as drawn: which face, which of its rows, how shaded.
    /// Two equal sources draw the same pixels, which is how ``BoardFrame`` skips unchanged rows.
    struct RowSource: Equatable {
        /// The code's raw value, whose face the row comes from.
        var face: UInt8
        var row: Int
        /// 1 unshaded; less while a flap is edge-on.
        var shade: Double
    }

    /// Where a pixel row of a module goes on the canvas.
    struct RowTarget {
        var x: Int
        var y: Int
    }

    func target(of picture: ModulePicture, faceRow: Int) -> RowTarget {
        RowTarget(
            x: originX + picture.column * (geometry.faceWidth + geometry.gap),
            y: originY + picture.row * (geometry.faceHeight + geometry.gap) + faceRow)
    }

    /// `module` `time` after its plan's start.
    func picture(of module: ModulePlan, drum: Drum, at time: Duration) -> ModulePicture {
        let landed = module.landings.prefix { $0 <= time }.count
        let current = drum.codes[module.path[landed]]
        guard landed < module.landings.count, time >= module.start else {
            return ModulePicture(row: module.row, column: module.column, resting: current)
        }
        let fallStart = landed == 0 ? module.start : module.landings[landed - 1]
        let fall = module.landings[landed] - fallStart
        let progress = fall > .zero ? min(1, max(0, (time - fallStart) / fall)) : 1
        return ModulePicture(
            row: module.row, column: module.column, falling: current, to: drum.codes[module.path[landed + 1]], progress: progress,
            faceHeight: geometry.faceHeight)
    }

    /// What row `y` of the module's face shows.
    func source(ofRow y: Int, in picture: ModulePicture) -> RowSource {
        guard let flap = picture.flap else { return RowSource(face: picture.current, row: y, shade: 1) }
        let faceHeight = geometry.faceHeight, upper = faceHeight / 2, lower = faceHeight - upper
        let shown = flap.rows, shade = picture.shade
        if flap.upper {
            // The current upper half folding down onto the hinge; the next one's upper half behind it.
            if y >= upper { return RowSource(face: picture.current, row: y, shade: 1) }
            if y < upper - shown { return RowSource(face: picture.next, row: y, shade: 1) }
            return RowSource(face: picture.current, row: (y - (upper - shown)) * upper / shown, shade: shade)
        } else {
            // The next lower half unfolding from the hinge over the current one.
            if y < upper { return RowSource(face: picture.next, row: y, shade: 1) }
            if y < upper + shown { return RowSource(face: picture.next, row: upper + (y - upper) * lower / shown, shade: shade) }
            return RowSource(face: picture.current, row: y, shade: 1)
        }
    }

    /// Copies one face row onto the canvas.
    func paint<C: Canvas>(_ source: RowSource, at target: RowTarget, into canvas: inout C) {
        let faceWidth = geometry.faceWidth
        let start = (Int(source.face) * geometry.faceHeight + source.row) * faceWidth
        faces.withUnsafeBufferPointer { faces in
            let row = UnsafeBufferPointer(rebasing: faces[start..<(start + faceWidth)])
            if source.shade < 1 {
                canvas.setPixels(x: target.x, y: target.y, row, shade: source.shade)
            } else {
                canvas.setPixels(x: target.x, y: target.y, row)
            }
        }
    }

    /// The face of `code`: its glyph in ink on the face colour, a colour chip solid, a black
    /// chip as dark as the backdrop; on faces large enough, the hinge across the middle.
    static func face(of code: CharacterCode, flap62: Flap62, font: GlyphFont, geometry: CellGeometry, style: RenderStyle) -> [RGB] {
        let width = geometry.faceWidth, height = geometry.faceHeight
        var pixels: [RGB]
        if let colour = code.colour {
            pixels = Array(
                repeating: colour == .black ? style.backdrop : (colour == .white || colour == .filled ? style.ink : RGB(colour)),
                count: width * height)
        } else {
            pixels = Array(repeating: style.face, count: width * height)
            if let glyph = flap62.character(code).flatMap(font.glyph) {
                for y in 0..<(font.height * geometry.scale) {
                    for x in 0..<(font.width * geometry.scale) where glyph[(y / geometry.scale) * font.width + x / geometry.scale] {
                        pixels[(y + geometry.padding) * width + x + geometry.padding] = style.ink
                    }
                }
            }
        }
        if let hinge = style.hinge, geometry.scale >= 2 {
            for x in 0..<width { pixels[(height / 2) * width + x] = hinge }
        }
        return pixels
    }
}

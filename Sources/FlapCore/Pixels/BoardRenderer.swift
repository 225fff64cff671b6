import Foundation

/// Draws boards, and the flip animation of a plan, into a canvas: each module a face with its
/// glyph (colour chips fill the face), the largest that fits, centred.
///
/// While a flap falls, the upper half of the face shows the next glyph's upper half (uncovered
/// as the flap leaves), the lower half still shows the current glyph's lower half, and the flap
/// itself is drawn foreshortened: first the current glyph's upper half folding down onto the
/// hinge, then the next glyph's lower half unfolding from it, darker while it is edge-on.
public struct BoardRenderer: Sendable {
    public let size: BoardSize
    public let width: Int
    public let height: Int
    public let style: RenderStyle
    public let geometry: CellGeometry
    private let originX: Int
    private let originY: Int
    /// Every code's face, row-major, indexed by raw code value.
    private let faces: [[RGB]]

    /// A renderer for a `size` board on a `width` × `height` canvas; throws when even the 5×7
    /// font does not fit, saying how many pixels the board needs.
    public init(size: BoardSize, width: Int, height: Int, style: RenderStyle = .led) throws(RenderError) {
        let fitting = CellGeometry.candidates(upTo: max(width, height) / 14).filter {
            let extent = $0.extent(of: size)
            return extent.width <= width && extent.height <= height
        }
        guard let geometry = fitting.last else {
            let needed = CellGeometry.smallest.extent(of: size)
            throw RenderError("a \(size.rows)×\(size.columns) board needs at least \(needed.width)×\(needed.height) pixels "
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
        faces = (0...255).map { raw in
            CharacterCode(raw).map { Self.face(of: $0, font: font, geometry: geometry, style: style) } ?? []
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
            for column in 0..<size.columns {
                let face = faces[Int(board[row, column].rawValue)]
                for y in 0..<geometry.faceHeight { copyRow(face, row: y, to: y, row: row, column: column, into: &canvas) }
            }
        }
    }

    /// Draws `plan` as it looks `time` after its start; at or after its end this is exactly
    /// `draw(plan.finalBoard)`.
    public func draw<C: Canvas>(_ plan: FlipPlan, at time: Duration, into canvas: inout C) {
        canvas.fill(style.backdrop)
        for module in plan.modules {
            let landed = module.landings.prefix { $0 <= time }.count
            let current = faces[Int(plan.drum.codes[module.path[landed]].rawValue)]
            guard landed < module.landings.count, time >= module.start else {
                for y in 0..<geometry.faceHeight { copyRow(current, row: y, to: y, row: module.row, column: module.column, into: &canvas) }
                continue
            }
            let next = faces[Int(plan.drum.codes[module.path[landed + 1]].rawValue)]
            let fallStart = landed == 0 ? module.start : module.landings[landed - 1]
            let fall = module.landings[landed] - fallStart
            let progress = fall > .zero ? min(1, max(0, (time - fallStart) / fall)) : 1
            drawFalling(from: current, to: next, progress: progress, row: module.row, column: module.column, into: &canvas)
        }
    }

    private func drawFalling<C: Canvas>(from current: [RGB], to next: [RGB], progress: Double, row: Int, column: Int, into canvas: inout C) {
        let faceHeight = geometry.faceHeight, upper = faceHeight / 2, lower = faceHeight - upper
        let fold = cos(progress * .pi)
        let shade = 0.55 + 0.45 * abs(fold)
        if fold > 0 {
            // The current upper half folding down onto the hinge; the next one's upper half behind it.
            let shown = Int((Double(upper) * fold).rounded())
            for y in 0..<upper {
                if y < upper - shown {
                    copyRow(next, row: y, to: y, row: row, column: column, into: &canvas)
                } else {
                    let source = (y - (upper - shown)) * upper / shown
                    copyRow(current, row: source, to: y, row: row, column: column, shade: shade, into: &canvas)
                }
            }
            for y in upper..<faceHeight { copyRow(current, row: y, to: y, row: row, column: column, into: &canvas) }
        } else {
            // The next lower half unfolding from the hinge over the current one.
            let shown = Int((Double(lower) * -fold).rounded())
            for y in 0..<upper { copyRow(next, row: y, to: y, row: row, column: column, into: &canvas) }
            for y in upper..<faceHeight {
                if y < upper + shown {
                    let source = upper + (y - upper) * lower / shown
                    copyRow(next, row: source, to: y, row: row, column: column, shade: shade, into: &canvas)
                } else {
                    copyRow(current, row: y, to: y, row: row, column: column, into: &canvas)
                }
            }
        }
    }

    private func copyRow<C: Canvas>(_ face: [RGB], row source: Int, to y: Int, row: Int, column: Int, shade: Double = 1, into canvas: inout C) {
        let faceWidth = geometry.faceWidth
        let x0 = originX + column * (faceWidth + geometry.gap), y0 = originY + row * (geometry.faceHeight + geometry.gap)
        let start = source * faceWidth
        for x in 0..<faceWidth {
            let colour = face[start + x]
            canvas.setPixel(x: x0 + x, y: y0 + y, shade < 1 ? colour.scaled(by: shade) : colour)
        }
    }

    /// The face of `code`: its glyph in ink on the face colour, a colour chip solid, a black
    /// chip as dark as the backdrop; on faces large enough, the hinge across the middle.
    static func face(of code: CharacterCode, font: GlyphFont, geometry: CellGeometry, style: RenderStyle) -> [RGB] {
        let width = geometry.faceWidth, height = geometry.faceHeight
        var pixels: [RGB]
        if let colour = code.colour {
            pixels = Array(repeating: colour == .black ? style.backdrop : (colour == .white || colour == .filled ? style.ink : RGB(colour)),
                           count: width * height)
        } else {
            pixels = Array(repeating: style.face, count: width * height)
            if let glyph = code.character.flatMap(font.glyph) {
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

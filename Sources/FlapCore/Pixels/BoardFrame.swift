/// A frame that remembers what each module's pixel rows show, so that drawing the next moment
/// of an animation repaints only the rows whose picture changed, and says where: a module at
/// rest, or a flap's unmoving halves, cost one comparison a row.
public struct BoardFrame: Sendable {
    /// What draws each moment.
    public let renderer: BoardRenderer
    /// The picture as last drawn.
    public private(set) var frame: PixelFrame
    /// What each module's rows show, module by module; empty when the frame holds something
    /// else (before the first drawing, or after ``replace(with:)``).
    private var drawn: [BoardRenderer.RowSource] = []

    /// A frame for `renderer`, drawn in full the first time.
    public init(renderer: BoardRenderer) {
        self.renderer = renderer
        frame = PixelFrame(width: renderer.width, height: renderer.height)
    }

    /// Draws `plan` `time` after its start; returns the rectangles that changed.
    public mutating func draw(_ plan: FlipPlan, at time: Duration) -> [PixelRect] {
        var changes = Changes(taking: &self)
        for module in plan.modules { changes.paint(renderer.picture(of: module, drum: plan.drum(of: module), at: time)) }
        return changes.finish(into: &self)
    }

    /// Draws `board` at rest; returns the rectangles that changed.
    public mutating func draw(_ board: Board) -> [PixelRect] {
        var changes = Changes(taking: &self)
        for row in 0..<renderer.size.rows {
            for column in 0..<renderer.size.columns { changes.paint(.init(row: row, column: column, resting: board[row, column])) }
        }
        return changes.finish(into: &self)
    }

    /// Puts a picture drawn elsewhere in the frame; the next drawing repaints everything.
    public mutating func replace(with picture: PixelFrame) {
        frame = picture
        drawn = []
    }

    /// One drawing in progress: the frame and what its rows show, taken out of the BoardFrame
    /// (so they stay uniquely referenced), and the rectangles repainted so far.
    private struct Changes {
        let renderer: BoardRenderer
        var frame: PixelFrame
        var drawn: [BoardRenderer.RowSource]
        let whole: Bool
        var changed: [PixelRect] = []

        init(taking board: inout BoardFrame) {
            renderer = board.renderer
            frame = board.frame
            drawn = board.drawn
            board.frame = PixelFrame(width: 0, height: 0)
            board.drawn = []
            whole = drawn.isEmpty
            if whole {
                frame.fill(renderer.style.backdrop)
                drawn = Array(repeating: .init(face: 0, row: -1, shade: 1), count: renderer.size.count * renderer.geometry.faceHeight)
            }
        }

        /// Repaints the rows of the module that differ from what they show.
        mutating func paint(_ picture: BoardRenderer.ModulePicture) {
            let faceHeight = renderer.geometry.faceHeight
            let first = (picture.row * renderer.size.columns + picture.column) * faceHeight
            var top = -1, bottom = -1
            for y in 0..<faceHeight {
                let source = renderer.source(ofRow: y, in: picture)
                guard drawn[first + y] != source else { continue }
                drawn[first + y] = source
                renderer.paint(source, at: renderer.target(of: picture, faceRow: y), into: &frame)
                if top < 0 { top = y }
                bottom = y
            }
            if top >= 0 {
                let corner = renderer.target(of: picture, faceRow: top)
                changed.append(PixelRect(x: corner.x, y: corner.y, width: renderer.geometry.faceWidth, height: bottom - top + 1))
            }
        }

        func finish(into board: inout BoardFrame) -> [PixelRect] {
            board.frame = frame
            board.drawn = drawn
            return whole ? [.whole(width: frame.width, height: frame.height)] : changed
        }
    }
}

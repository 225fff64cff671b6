import Testing

@testable import FlapCore

/// Drawing only what changed gives the same pictures as drawing everything, and says where.
@Suite struct BoardFrameTests {
    func board(_ text: String, size: BoardSize) throws -> Board {
        try Board(rows: TextLayout.encodeText(text, options: LayoutOptions(size: size)).rows)
    }

    func cascade(size: BoardSize) throws -> FlipPlan {
        let planner = try FlipPlanner(motion: .shortestWay)
        return try planner.plan(from: try board("HELLO {63}\nWORLD", size: size), to: try board("GOODBYE {66}\nFOR NOW ❤️", size: size))
    }

    @Test(arguments: [(64, 32, RenderStyle.led), (320, 120, .screen)])
    func eachFrameIsTheWholeDrawingAndTheChangesCoverEveryDifference(width: Int, height: Int, style: RenderStyle) throws {
        let size = BoardSize(rows: 3, columns: 10)
        let plan = try cascade(size: size)
        let renderer = try BoardRenderer(size: size, width: width, height: height, style: style)
        var drawing = BoardFrame(renderer: renderer)
        #expect(drawing.draw(plan.board(at: .zero)) == [.whole(width: width, height: height)])
        var before = drawing.frame
        var repainted = 0, frames = 0
        for time in FlipAnimation.frameTimes(duration: plan.duration, framesPerSecond: 60) {
            let changed = drawing.draw(plan, at: time)
            var whole = PixelFrame(width: width, height: height)
            renderer.draw(plan, at: time, into: &whole)
            #expect(drawing.frame == whole, "at \(time)")
            for y in 0..<height {
                for x in 0..<width where whole[x, y] != before[x, y] {
                    #expect(
                        changed.contains { $0.columns.contains(x) && $0.rows.contains(y) }, "(\(x), \(y)) at \(time) changed outside the rectangles")
                }
            }
            repainted += changed.reduce(0) { $0 + $1.width * $1.height }
            frames += 1
            before = whole
        }
        // Far less than every pixel of every frame: modules at rest and unmoving half-faces stay.
        #expect(repainted < frames * width * height / 4)
        // At rest nothing changes, and drawing the final board again changes nothing.
        #expect(drawing.draw(plan, at: plan.duration + .seconds(1)).isEmpty)
        #expect(drawing.draw(plan.finalBoard).isEmpty)
    }

    @Test func aPictureFromElsewhereMakesTheNextDrawingWhole() throws {
        let size = BoardSize(rows: 1, columns: 5)
        let renderer = try BoardRenderer(size: size, width: 32, height: 8)
        var drawing = BoardFrame(renderer: renderer)
        _ = drawing.draw(try board("HI", size: size))
        drawing.replace(with: PixelFrame(width: 32, height: 8, colour: .white))
        #expect(drawing.draw(try board("HI", size: size)) == [.whole(width: 32, height: 8)])
        var expected = PixelFrame(width: 32, height: 8)
        renderer.draw(try board("HI", size: size), into: &expected)
        #expect(drawing.frame == expected)
    }

    @Test func rowsRunOffACanvasEdgeWithoutHarm() {
        var frame = PixelFrame(width: 4, height: 2)
        let row = [RGB.white, RGB(1, 2, 3), RGB(4, 5, 6)]
        row.withUnsafeBufferPointer { row in
            frame.setPixels(x: -1, y: 0, row)
            frame.setPixels(x: 3, y: 1, row)
            frame.setPixels(x: 0, y: 2, row)
            frame.setPixels(x: 9, y: 0, row)
        }
        #expect(frame.pixels == [RGB(1, 2, 3), RGB(4, 5, 6), .black, .black, .black, .black, .black, .white])
        #expect(PixelRect(x: -2, y: 1, width: 5, height: 9).clipped(width: 4, height: 2) == PixelRect(x: 0, y: 1, width: 3, height: 1))
    }
}

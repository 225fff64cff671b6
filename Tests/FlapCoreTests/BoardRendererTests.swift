import Testing

@testable import FlapCore

@Suite struct BoardRendererTests {
    func board(_ text: String, size: BoardSize) throws -> Board {
        try Board(rows: TextLayout.encodeText(text, options: LayoutOptions(size: size)).rows)
    }

    @Test func theLargeFontIsTheSmallOneSmoothedAtTwiceTheSize() {
        var seen: Set<[Bool]> = []
        for character in GlyphFont.small.characters {
            let small = GlyphFont.small.glyph(character)!, large = GlyphFont.large.glyph(character)!
            #expect(large.count == 10 * 14)
            #expect(seen.insert(large).inserted, "\(character) looks like another glyph")
            // Each lit pixel becomes four; a dark one gains at most two corners.
            for y in 0..<7 {
                for x in 0..<5 {
                    let quad = [0, 1, 10, 11].map { large[(2 * y) * 10 + 2 * x + $0] }
                    let lit = quad.filter { $0 }.count
                    #expect(small[y * 5 + x] ? lit == 4 : lit <= 2, "\(character) at \(x),\(y)")
                }
            }
        }
        // A diagonal no longer staircases: Z's stroke from (3, 2) down to (2, 3) gets the corner
        // between them filled, where the dark pixel (2, 2) meets both.
        #expect(!GlyphFont.small.glyph("Z")![2 * 5 + 2] && GlyphFont.large.glyph("Z")![5 * 10 + 5])
        // D's left corners stay square; O's are bevelled.
        #expect(GlyphFont.large.glyph("D")![0] && !GlyphFont.large.glyph("O")![0])
    }

    @Test func theLargestFaceThatFitsIsChosenAndCentred() throws {
        let matrix = try BoardRenderer(size: BoardSize(rows: 1, columns: 5), width: 32, height: 8)
        #expect(matrix.geometry == .smallest)
        let screen = try BoardRenderer(size: .flagship, width: 1920, height: 1080, style: .screen)
        #expect(screen.geometry.fontName == "10x14" && screen.geometry.scale == 6)
        #expect(screen.geometry.extent(of: .flagship).width <= 1920)
        #expect(throws: RenderError.self) { try BoardRenderer(size: .flagship, width: 64, height: 32) }
        do {
            _ = try BoardRenderer(size: .flagship, width: 64, height: 32)
        } catch {
            #expect(error.description.contains("131×47") && error.description.contains("64×32"))
        }
        #expect(BoardRenderer.largestBoard(width: 64, height: 32) == BoardSize(rows: 4, columns: 10))
        #expect(BoardRenderer.largestBoard(width: 32, height: 8) == BoardSize(rows: 1, columns: 5))
    }

    @Test func aBoardAtRestOnLEDsIsTheOneBitDrawing() throws {
        let size = BoardSize(rows: 2, columns: 5)
        var b = try board("HI\nWORLD", size: size)
        b[0, 4] = CharacterCode(63)!  // red chip
        let renderer = try BoardRenderer(size: size, width: 30, height: 16)
        var frame = PixelFrame(width: 30, height: 16)
        renderer.draw(b, into: &frame)
        var expected = BoardBitmap.draw(b)
        expected[29, 0] = expected[29, 0]  // same size: 5 cells of 6 pixels
        #expect(frame.bitmap == expected)
        #expect(frame[24, 0] == RGB(.red))
    }

    @Test func theAnimationEndsExactlyOnTheFinalBoard() throws {
        let size = BoardSize(rows: 4, columns: 10)
        let planner = try FlipPlanner(motion: .shortestWay)
        let plan = try planner.plan(from: try board("HELLO", size: size), to: try board("GOODBYE\nWORLD!", size: size))
        let renderer = try BoardRenderer(size: size, width: 64, height: 32)
        var last = PixelFrame(width: 64, height: 32), final = PixelFrame(width: 64, height: 32)
        renderer.draw(plan, at: plan.duration, into: &last)
        renderer.draw(plan.finalBoard, into: &final)
        #expect(last == final)
        var first = PixelFrame(width: 64, height: 32), start = PixelFrame(width: 64, height: 32)
        renderer.draw(plan, at: .zero, into: &first)
        renderer.draw(plan.board(at: .zero), into: &start)
        // At time zero only modules starting at once have begun to fall: the rest are as they were.
        #expect(first.pixels.indices.filter { first.pixels[$0] != start.pixels[$0] }.count < 64 * 32 / 4)
        let times = FlipAnimation.frameTimes(duration: plan.duration, framesPerSecond: 120)
        #expect(times.first == .zero && times.last == plan.duration)
        let longestStep: Duration = .seconds(1) / 60 + .nanoseconds(1)
        #expect(
            zip(times, times.dropFirst()).allSatisfy { (earlier: Duration, later: Duration) in later > earlier && later - earlier <= longestStep })
    }

    @Test func aFallingFlapUncoversTheNextUpperHalfAndFoldsOverTheLowerOne() throws {
        let size = BoardSize(rows: 1, columns: 1)
        let planner = try FlipPlanner(drum: .vestaboard, motion: .shortestWay)
        let plan = try planner.plan(from: try board("A", size: size), to: try board("B", size: size))
        let module = plan.modules[0]
        #expect(module.path.count == 2)
        let renderer = try BoardRenderer(size: size, width: 60, height: 80, style: .screen)
        let g = renderer.geometry
        func frame(at time: Duration) -> PixelFrame {
            var f = PixelFrame(width: 60, height: 80)
            renderer.draw(plan, at: time, into: &f)
            return f
        }
        func face(_ text: String) throws -> PixelFrame {
            var f = PixelFrame(width: 60, height: 80)
            renderer.draw(try board(text, size: size), into: &f)
            return f
        }
        let a = try face("A"), b = try face("B")
        let top = (60 - g.faceWidth) / 2, upTo = (80 - g.faceHeight) / 2 + g.faceHeight / 2
        func rows(_ f: PixelFrame, _ range: Range<Int>) -> [RGB] { range.flatMap { y in (top..<(top + g.faceWidth)).map { f[$0, y] } } }
        let fall = module.landings[0] - module.start
        // A quarter of the way: the lower half is still A's; the very top already B's.
        let quarter = frame(at: module.start + fall / 4)
        let faceTop = (80 - g.faceHeight) / 2
        #expect(rows(quarter, upTo..<(faceTop + g.faceHeight)) == rows(a, upTo..<(faceTop + g.faceHeight)))
        #expect(rows(quarter, faceTop..<(faceTop + 4)) == rows(b, faceTop..<(faceTop + 4)))
        #expect(quarter != a && quarter != b)
        // Three quarters: the upper half is all B's; the bottom rows are still A's.
        let threeQuarters = frame(at: module.start + fall * 3 / 4)
        #expect(rows(threeQuarters, faceTop..<upTo) == rows(b, faceTop..<upTo))
        let bottom = faceTop + g.faceHeight
        #expect(rows(threeQuarters, (bottom - 4)..<bottom) == rows(a, (bottom - 4)..<bottom))
        #expect(frame(at: module.landings[0]) == b)
    }
}

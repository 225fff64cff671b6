import FlapCore
import FlapHardware
import FlapSimulated
import Synchronization
import Testing

/// Displays told where each frame changed update only there, and still show every frame exactly.
@Suite struct ChangedRectanglesTests {
    /// A simulated framebuffer that counts the bytes it is given.
    final class CountingMemory: FramebufferMemory {
        let inner: SimulatedFramebuffer
        let copied = Mutex(0)
        var name: String { inner.name }
        var format: FramebufferFormat { inner.format }
        init(_ inner: SimulatedFramebuffer) { self.inner = inner }
        func write(_ bytes: [UInt8], at offset: Int) throws {
            copied.withLock { $0 += bytes.count }
            try inner.write(bytes, at: offset)
        }
        func copy(_ spans: [Range<Int>], of screen: [UInt8]) throws {
            copied.withLock { $0 += spans.reduce(0) { $0 + $1.count } }
            try inner.copy(spans, of: screen)
        }
    }

    /// The same colour, give or take the rounding of a brightness scale.
    static func close(_ a: RGB, _ b: RGB) -> Bool {
        abs(Int(a.red) - Int(b.red)) <= 1 && abs(Int(a.green) - Int(b.green)) <= 1 && abs(Int(a.blue) - Int(b.blue)) <= 1
    }

    static func cascade(_ size: BoardSize) throws -> FlipPlan {
        func board(_ text: String) throws -> Board { try Board(rows: TextLayout.encodeText(text, options: LayoutOptions(size: size)).rows) }
        return try FlipPlanner(motion: .shortestWay).plan(from: try board("SPLIT\nFLAP"), to: try board("{63}{64} ON\nA SCREEN"))
    }

    @Test func aScreenGetsOnlyWhatChangedAndShowsEveryFrame() async throws {
        let format = try FramebufferFormat(width: 160, height: 64, layout: .rgb888)
        let memory = CountingMemory(SimulatedFramebuffer(format: format))
        let display = FramebufferDisplay(memory: memory)
        let size = BoardSize(rows: 2, columns: 8)
        let plan = try Self.cascade(size)
        var drawing = BoardFrame(renderer: try BoardRenderer(size: size, width: 160, height: 64, style: .screen))
        var frames = 0
        for (k, time) in FlipAnimation.frameTimes(duration: plan.duration, framesPerSecond: 60).enumerated() {
            let changed = drawing.draw(plan, at: time)
            // Halfway, the night's brightness: the whole screen is converted again.
            let brightness = k < 20 ? 1.0 : 0.5
            try await display.show(drawing.frame, brightness: brightness, changed: changed)
            let scaled = drawing.frame.pixels.map { $0.scaled(by: brightness) }
            let wrong = zip(memory.inner.picture.pixels, scaled).enumerated().first { !Self.close($0.element.0, $0.element.1) }
            #expect(
                wrong == nil, "frame \(k): pixel \(wrong.map { "\($0.offset % 160), \($0.offset / 160): \($0.element.0) for \($0.element.1)" } ?? "")"
            )
            frames += 1
        }
        let everything = frames * format.size
        #expect(memory.copied.withLock { $0 } < everything / 5)
        // Nothing changed: nothing written.
        let before = memory.copied.withLock { $0 }
        try await display.show(drawing.frame, brightness: 0.5, changed: [])
        #expect(memory.copied.withLock { $0 } == before)
    }

    @Test func aHUB75MatrixRepaintsWhatChangedSinceTheFrameBeforeLast() async throws {
        let matrix = SimulatedRGBMatrix()
        var options = RGBMatrixOptions()
        options.rows = 32
        options.columns = 64
        let display = try HUB75Display(api: matrix, options: options)
        let size = BoardSize(rows: 2, columns: 8)
        let plan = try Self.cascade(size)
        var drawing = BoardFrame(renderer: try BoardRenderer(size: size, width: 64, height: 32))
        // A frame shown whole first (a resting board), then the animation with its changes.
        _ = drawing.draw(plan.board(at: .zero))
        try await display.show(drawing.frame, brightness: 1)
        #expect(matrix.shown == drawing.frame)
        for time in FlipAnimation.frameTimes(duration: plan.duration, framesPerSecond: 60) {
            let changed = drawing.draw(plan, at: time)
            try await display.show(drawing.frame, brightness: 1, changed: changed)
            #expect(matrix.shown == drawing.frame, "at \(time)")
            if time > plan.duration / 2, time < plan.duration / 2 + .milliseconds(17) {
                await display.darken()
                try await display.show(drawing.frame, brightness: 1, changed: [])
                #expect(matrix.shown == drawing.frame, "woken at \(time)")
            }
        }
    }
}

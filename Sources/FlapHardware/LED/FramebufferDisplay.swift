import FlapCore

/// Where a framebuffer's bytes go: the device's memory, a file laid out like it, or a
/// simulation.
public protocol FramebufferMemory: Sendable {
    var name: String { get }
    var format: FramebufferFormat { get }
    /// Writes `bytes` at byte `offset`.
    func write(_ bytes: [UInt8], at offset: Int) throws
    /// Copies the byte ranges `spans` of `screen`, a whole screen laid out as this memory is,
    /// to the same places in the memory.
    func copy(_ spans: [Range<Int>], of screen: [UInt8]) throws
}

/// Any Linux framebuffer (an HDMI screen, an SPI TFT): each frame converted to the
/// framebuffer's pixel format and written, only where it changed; brightness scales the colours.
public actor FramebufferDisplay: PixelDisplay {
    /// The device, for errors and status.
    public nonisolated let name: String
    /// The screen's width in pixels.
    public nonisolated let width: Int
    /// The screen's height in pixels.
    public nonisolated let height: Int
    /// A screen shows colour.
    public nonisolated let isMonochrome = false
    private let memory: any FramebufferMemory
    private let format: FramebufferFormat
    /// The screen as written, in the framebuffer's layout.
    private var screen: [UInt8]
    /// The brightness the screen holds its frame at; nil when the memory may hold anything.
    private var shownScale: UInt32?
    /// The last frame shown without saying where it changed, to compare the next one with.
    private var shown: PixelFrame?

    /// A display on `memory`, in the format it reports.
    public init(memory: any FramebufferMemory) {
        self.memory = memory
        format = memory.format
        name = memory.name
        width = format.width
        height = format.height
        screen = Array(repeating: 0, count: format.size)
    }

    /// A frame whose changes are not known: the rows that differ from the last such frame
    /// (during a flip most of a screen stays as it was) are written.
    public func show(_ frame: PixelFrame, brightness: Double) async throws {
        var changed = [PixelRect.whole(width: frame.width, height: frame.height)]
        if let shown, shown.width == frame.width, shown.height == frame.height {
            let rows = (0..<frame.height).filter { y in
                let line = (y * frame.width)..<((y + 1) * frame.width)
                return !frame.pixels[line].elementsEqual(shown.pixels[line])
            }
            if let first = rows.first, let last = rows.last {
                changed = [PixelRect(x: 0, y: first, width: frame.width, height: last - first + 1)]
            } else {
                changed = []
            }
        }
        try await write(frame, brightness: brightness, changed: changed)
        shown = frame
    }

    /// Copies the changed rectangles into the screen's memory, at `brightness`.
    public func show(_ frame: PixelFrame, brightness: Double, changed: [PixelRect]) async throws {
        shown = nil  // not kept: the caller goes on drawing into the frame it passed
        try await write(frame, brightness: brightness, changed: changed)
    }

    private func write(_ frame: PixelFrame, brightness: Double, changed: [PixelRect]) async throws {
        let scale = UInt32(max(0, min(1, brightness)) * 256)
        let rects = (scale == shownScale ? changed : [.whole(width: frame.width, height: frame.height)])
            .map { $0.clipped(width: min(width, frame.width), height: min(height, frame.height)) }
            .filter { !$0.isEmpty }
        shownScale = nil  // until the memory holds the frame
        guard !rects.isEmpty else {
            shownScale = scale
            return
        }
        convert(frame, rects, scale: scale)
        let lineLength = format.lineLength, bytes = format.bytesPerPixel
        var spans: [Range<Int>] = []
        for rect in rects {
            for y in rect.rows {
                let start = y * lineLength + rect.x * bytes
                spans.append(start..<(start + rect.width * bytes))
            }
        }
        try memory.copy(spans, of: screen)
        shownScale = scale
    }

    /// Converts the rectangles of `frame` into the framebuffer's layout.
    private func convert(_ frame: PixelFrame, _ rects: [PixelRect], scale: UInt32) {
        let bytes = format.bytesPerPixel, lineLength = format.lineLength, format = self.format
        frame.pixels.withUnsafeBufferPointer { pixels in
            screen.withUnsafeMutableBufferPointer { screen in
                // Boards are flat colour: a pixel like the one before it reuses its value.
                var last = RGB(0, 0, 0), value = format.pixel(0, 0, 0)
                for rect in rects {
                    for y in rect.rows {
                        var at = y * lineLength + rect.x * bytes
                        for x in rect.columns {
                            let c = pixels[y * frame.width + x]
                            if c != last {
                                last = c
                                // Swift shifts before it multiplies: the brackets matter.
                                value = format.pixel(
                                    UInt8((UInt32(c.red) * scale) >> 8), UInt8((UInt32(c.green) * scale) >> 8), UInt8((UInt32(c.blue) * scale) >> 8))
                            }
                            for k in 0..<bytes { screen[at + k] = UInt8(truncatingIfNeeded: value >> UInt32(8 * k)) }
                            at += bytes
                        }
                    }
                }
            }
        }
    }

    /// The screen black.
    public func darken() async {
        shown = nil
        shownScale = nil
        for i in screen.indices { screen[i] = 0 }
        try? memory.write(screen, at: 0)
    }
}

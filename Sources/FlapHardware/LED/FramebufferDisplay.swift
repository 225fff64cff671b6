import FlapCore

/// Where a framebuffer's bytes go: the device's memory, a file laid out like it, or a
/// simulation. Writes are whole rows or screens at a byte offset.
public protocol FramebufferMemory: Sendable {
    var name: String { get }
    var format: FramebufferFormat { get }
    func write(_ bytes: [UInt8], at offset: Int) throws
}

/// Any Linux framebuffer (an HDMI screen, an SPI TFT): each frame converted to the
/// framebuffer's pixel format and written whole; brightness scales the colours.
public actor FramebufferDisplay: PixelDisplay {
    public nonisolated let name: String
    public nonisolated let width: Int
    public nonisolated let height: Int
    public nonisolated let isMonochrome = false
    private let memory: any FramebufferMemory
    private let format: FramebufferFormat
    private var screen: [UInt8]
    /// The last frame written, and at what brightness.
    private var shown: PixelFrame?
    private var shownScale: UInt32 = 0

    public init(memory: any FramebufferMemory) {
        self.memory = memory
        format = memory.format
        name = memory.name
        width = format.width
        height = format.height
        screen = Array(repeating: 0, count: format.size)
    }

    public func show(_ frame: PixelFrame, brightness: Double) async throws {
        let scale = UInt32(max(0, min(1, brightness)) * 256)
        let bytes = format.bytesPerPixel, lineLength = format.lineLength, format = self.format
        let rows = min(height, frame.height), columns = min(width, frame.width)
        // Only rows that changed since the last frame at the same brightness are converted and
        // written: during a flip most of a screen stays as it was.
        let previous = scale == shownScale ? shown : nil
        var firstChanged = rows, lastChanged = -1
        frame.pixels.withUnsafeBufferPointer { pixels in
            previous?.pixels.withUnsafeBufferPointer { before in
                for y in 0..<rows where !pixels[(y * frame.width)..<(y * frame.width + columns)].elementsEqual(before[(y * frame.width)..<(y * frame.width + columns)]) {
                    firstChanged = min(firstChanged, y)
                    lastChanged = y
                }
            }
            if previous == nil { (firstChanged, lastChanged) = (0, rows - 1) }
            guard lastChanged >= firstChanged else { return }
            screen.withUnsafeMutableBufferPointer { screen in
                // Boards are flat colour: a pixel like the one before it reuses its value.
                var last = RGB(0, 0, 0), value = format.pixel(0, 0, 0)
                for y in firstChanged...lastChanged {
                    var at = y * lineLength
                    for x in 0..<columns {
                        let c = pixels[y * frame.width + x]
                        if c != last {
                            last = c
                            value = format.pixel(UInt8(UInt32(c.red) * scale >> 8), UInt8(UInt32(c.green) * scale >> 8), UInt8(UInt32(c.blue) * scale >> 8))
                        }
                        for k in 0..<bytes { screen[at + k] = UInt8(truncatingIfNeeded: value >> UInt32(8 * k)) }
                        at += bytes
                    }
                }
            }
        }
        if lastChanged >= firstChanged {
            let start = firstChanged * lineLength, end = (lastChanged + 1) * lineLength
            do {
                try memory.write(Array(screen[start..<end]), at: start)
            } catch {
                shown = nil  // the next frame writes everything again
                throw error
            }
        }
        shown = frame
        shownScale = scale
    }

    public func darken() async {
        shown = nil
        for i in screen.indices { screen[i] = 0 }
        try? memory.write(screen, at: 0)
    }
}

import FlapCore
import FlapHardware
import Synchronization

/// A framebuffer's memory held in this process: what a screen would scan out.
public final class SimulatedFramebuffer: FramebufferMemory {
    public let name: String
    public let format: FramebufferFormat
    private let memory: Mutex<[UInt8]>

    public init(format: FramebufferFormat, name: String = "simulated framebuffer") {
        self.name = name
        self.format = format
        memory = Mutex(Array(repeating: 0, count: format.size))
    }

    public func write(_ bytes: [UInt8], at offset: Int) throws {
        guard offset >= 0, offset + bytes.count <= format.size else {
            throw HardwareError(device: name, problem: "a write of \(bytes.count) bytes at \(offset) runs past the \(format.size)-byte screen")
        }
        memory.withLock { $0.replaceSubrange(offset..<(offset + bytes.count), with: bytes) }
    }

    public func copy(_ spans: [Range<Int>], of screen: [UInt8]) throws {
        guard screen.count <= format.size else {
            throw HardwareError(device: name, problem: "a screen of \(screen.count) bytes is larger than the \(format.size)-byte memory")
        }
        memory.withLock { memory in
            memory.withUnsafeMutableBytes { memory in
                screen.withUnsafeBytes { screen in
                    for span in spans.map({ $0.clamped(to: 0..<screen.count) }) where !span.isEmpty {
                        (memory.baseAddress! + span.lowerBound).copyMemory(from: screen.baseAddress! + span.lowerBound, byteCount: span.count)
                    }
                }
            }
        }
    }

    public var bytes: [UInt8] { memory.withLock { $0 } }

    /// The screen as a picture, read back through the pixel format.
    public var picture: PixelFrame { Self.picture(of: bytes, format: format) }

    public static func picture(of bytes: [UInt8], format: FramebufferFormat) -> PixelFrame {
        var frame = PixelFrame(width: format.width, height: format.height)
        for y in 0..<format.height {
            for x in 0..<format.width {
                let at = y * format.lineLength + x * format.bytesPerPixel
                var value: UInt32 = 0
                for k in 0..<format.bytesPerPixel { value |= UInt32(bytes[at + k]) << UInt32(8 * k) }
                let c = format.colour(of: value)
                frame.setPixel(x: x, y: y, RGB(c.red, c.green, c.blue))
            }
        }
        return frame
    }
}

/// rpi-rgb-led-matrix's C API as a HUB75 matrix would take it: two canvases swapped on the
/// refresh, brightness, pixels out of range ignored, as the library does.
public final class SimulatedRGBMatrix: RGBMatrixAPI, Sendable {
    // Called only from the HUB75Display actor that owns it; the lock is for tests reading it.
    private let state = Mutex(State())

    struct State {
        var width = 0, height = 0
        var offscreen: PixelFrame = PixelFrame(width: 0, height: 0)
        var shown: PixelFrame = PixelFrame(width: 0, height: 0)
        var brightness = 100
        var swaps = 0
        var deleted = false
        var options: RGBMatrixOptions?
    }

    public init() {}

    public func create(_ options: RGBMatrixOptions) throws -> (width: Int, height: Int) {
        guard [8, 16, 32, 64].contains(options.rows), options.columns > 0, (1...3).contains(options.parallel), options.chain > 0 else {
            throw HardwareError(device: "HUB75 matrix", problem: "the library refused the options (rows \(options.rows), cols \(options.columns), chain \(options.chain), parallel \(options.parallel))")
        }
        state.withLock { s in
            s.width = options.width
            s.height = options.height
            s.offscreen = PixelFrame(width: options.width, height: options.height)
            s.shown = s.offscreen
            s.brightness = options.brightness
            s.options = options
        }
        return (options.width, options.height)
    }

    public func setPixel(x: Int, y: Int, red: UInt8, green: UInt8, blue: UInt8) {
        state.withLock { $0.offscreen.setPixel(x: x, y: y, RGB(red, green, blue)) }
    }

    public func swapOnVSync() {
        state.withLock { s in
            swap(&s.offscreen, &s.shown)
            s.swaps += 1
        }
    }

    public func setBrightness(_ percent: Int) { state.withLock { $0.brightness = max(1, min(100, percent)) } }
    public func clear() { state.withLock { $0.offscreen.clear() } }
    public func delete() { state.withLock { $0.deleted = true; $0.shown.clear() } }

    /// What the panel shows now, at its brightness.
    public var shown: PixelFrame { state.withLock { $0.shown } }
    public var brightness: Int { state.withLock { $0.brightness } }
    public var swaps: Int { state.withLock { $0.swaps } }
    public var deleted: Bool { state.withLock { $0.deleted } }
    public var options: RGBMatrixOptions? { state.withLock { $0.options } }
}

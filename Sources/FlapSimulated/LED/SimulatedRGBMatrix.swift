import FlapCore
import FlapHardware
import Synchronization

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

    /// A matrix not yet created.
    public init() {}

    /// Creates it as `options` say; its size in pixels.
    public func create(_ options: RGBMatrixOptions) throws -> (width: Int, height: Int) {
        guard [8, 16, 32, 64].contains(options.rows), options.columns > 0, (1...3).contains(options.parallel), options.chain > 0 else {
            throw HardwareError(
                device: "HUB75 matrix",
                problem:
                    "the library refused the options (rows \(options.rows), cols \(options.columns), chain \(options.chain), parallel \(options.parallel))"
            )
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

    /// Sets one pixel of the canvas being drawn.
    public func setPixel(x: Int, y: Int, red: UInt8, green: UInt8, blue: UInt8) {
        state.withLock { $0.offscreen.setPixel(x: x, y: y, RGB(red, green, blue)) }
    }

    /// Shows the canvas drawn, and draws on the other.
    public func swapOnVSync() {
        state.withLock { s in
            swap(&s.offscreen, &s.shown)
            s.swaps += 1
        }
    }

    /// Sets the brightness, 1 to 100 %.
    public func setBrightness(_ percent: Int) { state.withLock { $0.brightness = max(1, min(100, percent)) } }
    /// Clears the canvas being drawn.
    public func clear() { state.withLock { $0.offscreen.clear() } }
    /// Deletes it, leaving it dark.
    public func delete() {
        state.withLock {
            $0.deleted = true; $0.shown.clear()
        }
    }

    /// What the panel shows now, at its brightness.
    public var shown: PixelFrame { state.withLock { $0.shown } }
    /// Its brightness.
    public var brightness: Int { state.withLock { $0.brightness } }
    /// Canvases swapped.
    public var swaps: Int { state.withLock { $0.swaps } }
    /// Whether it was deleted.
    public var deleted: Bool { state.withLock { $0.deleted } }
    /// The options it was created with.
    public var options: RGBMatrixOptions? { state.withLock { $0.options } }
}

import FlapCore

/// The options of a HUB75 matrix, as rpi-rgb-led-matrix names them.
public struct RGBMatrixOptions: Sendable, Equatable {
    /// Rows of one panel (16, 32, 64).
    public var rows = 32
    /// Columns of one panel (32, 64).
    public var columns = 64
    /// Panels daisy-chained on one output.
    public var chain = 1
    /// Chains driven side by side (1–3, on Pis with 40 pins).
    public var parallel = 1
    /// The adapter's wiring: `regular`, `adafruit-hat`, `adafruit-hat-pwm`, …
    public var hardwareMapping = "regular"
    /// 1–100 percent.
    public var brightness = 100
    /// 1–11: fewer bits, fewer colours, faster refresh.
    public var pwmBits = 11
    /// 0–4: slows the library's GPIO writes for faster Pis (a Pi 4 usually needs 2 or more).
    public var gpioSlowdown = 1

    /// One 32×64 panel on the regular wiring, at full brightness.
    public init() {}

    /// The whole display's size.
    public var width: Int { columns * chain }
    /// The whole display's height.
    public var height: Int { rows * parallel }
}

/// rpi-rgb-led-matrix's C API, the lowest interface of a HUB75 matrix (the library drives the
/// pins itself): what ``HUB75Display`` calls. One display owns it; it is not shared.
public protocol RGBMatrixAPI {
    /// Opens the matrix; returns its size.
    func create(_ options: RGBMatrixOptions) throws -> (width: Int, height: Int)
    /// Draws into the offscreen canvas.
    func setPixel(x: Int, y: Int, red: UInt8, green: UInt8, blue: UInt8)
    /// Shows the offscreen canvas at the next refresh; the old one becomes the offscreen canvas.
    func swapOnVSync()
    func setBrightness(_ percent: Int)
    /// Clears the offscreen canvas.
    func clear()
    /// Stops the refresh thread and leaves the panel dark.
    func delete()
}

/// HUB75 RGB matrices through rpi-rgb-led-matrix: each frame drawn into the offscreen canvas and
/// swapped in on the refresh; brightness as the library's percent.
///
/// The offscreen canvas holds the frame before last, so a frame whose changes are known
/// repaints what changed since that one: its own rectangles and the previous frame's.
public actor HUB75Display: PixelDisplay {
    /// The display's name, for errors and status.
    public nonisolated let name: String
    /// Pixels across the chained panels.
    public nonisolated let width: Int
    /// Pixels down the parallel chains.
    public nonisolated let height: Int
    /// A HUB75 matrix shows colour.
    public nonisolated let isMonochrome = false
    private let api: any RGBMatrixAPI
    private var brightness: Int?
    private var open = true
    /// Canvases whose picture is not known (2 at first: both): they are painted whole.
    private var unknownCanvases = 2
    /// Where the frame last shown changed from the one before it.
    private var lastChanges: [PixelRect] = []

    /// A display through `api` (rpi-rgb-led-matrix, or its simulated twin) with `options`; the library's refusal is thrown.
    public init(api: sending any RGBMatrixAPI, options: RGBMatrixOptions, name: String = "HUB75 matrix") throws {
        let size = try api.create(options)
        self.api = api
        self.name = name
        width = size.width
        height = size.height
    }

    /// The whole frame.
    public func show(_ frame: PixelFrame, brightness level: Double) async throws {
        try await show(frame, brightness: level, changed: nil)
    }

    /// The changed rectangles, onto the back buffer (which still holds the frame before last), then swapped in.
    public func show(_ frame: PixelFrame, brightness level: Double, changed: [PixelRect]) async throws {
        try await show(frame, brightness: level, changed: Optional(changed))
    }

    private func show(_ frame: PixelFrame, brightness level: Double, changed: [PixelRect]?) async throws {
        guard open else { throw HardwareError(device: name, problem: "the matrix was shut down") }
        let percent = Int((max(0, min(1, level)) * 100).rounded())
        guard percent > 0 else {
            api.clear()
            api.swapOnVSync()
            unknownCanvases = 2
            return
        }
        if brightness != percent {
            api.setBrightness(percent)
            brightness = percent
        }
        let whole = PixelRect.whole(width: min(width, frame.width), height: min(height, frame.height))
        let rects =
            unknownCanvases > 0 ? [whole] : changed.map { (lastChanges + $0).map { $0.clipped(width: whole.width, height: whole.height) } } ?? [whole]
        for rect in rects {
            for y in rect.rows {
                for x in rect.columns {
                    let c = frame.pixels[y * frame.width + x]
                    api.setPixel(x: x, y: y, red: c.red, green: c.green, blue: c.blue)
                }
            }
        }
        api.swapOnVSync()
        if let changed {
            unknownCanvases = max(0, unknownCanvases - 1)
            lastChanges = changed
        } else {
            // The other canvas holds the frame before, whose difference from this one is unknown.
            unknownCanvases = 1
        }
    }

    /// Every LED dark, and the matrix released.
    public func darken() async {
        guard open else { return }
        api.clear()
        api.swapOnVSync()
        unknownCanvases = 2
    }

    /// Dark, and the library's refresh thread stopped: for the end.
    public func close() {
        guard open else { return }
        api.clear()
        api.swapOnVSync()
        api.delete()
        open = false
    }
}

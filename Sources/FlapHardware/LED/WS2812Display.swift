import FlapCore

/// A WS2812 strip or matrix on a SPI device at 2.4 MHz. Brightness scales every colour; a
/// current limit lowers it further for a frame that would draw more than the supply gives.
public actor WS2812Display: PixelDisplay {
    /// What one LED draws per colour channel at full value, and at rest: the WS2812B's typical
    /// figures, as the usual current-limiting libraries count them.
    public static let milliampsPerChannel = 20.0
    /// What one LED draws at rest.
    public static let idleMilliamps = 1.0

    /// The SPI device's name, for errors and status.
    public nonisolated let name: String
    /// LEDs across.
    public nonisolated let width: Int
    /// LEDs down.
    public nonisolated let height: Int
    /// WS2812s show colour.
    public nonisolated let isMonochrome = false
    private let spi: any SPIDevice
    private let strip: WS2812Strip
    private let currentLimit: Double?
    /// The brightness the last frame was actually sent at, after the current limit.
    public private(set) var lastBrightness: Double = 0
    private var requestedBrightness: Double?

    /// `currentLimit` in milliamps for the whole strip (nil: no limit).
    public init(spi: any SPIDevice, strip: WS2812Strip, currentLimit: Double? = nil) {
        self.spi = spi
        self.strip = strip
        self.currentLimit = currentLimit
        name = spi.name
        width = strip.width
        height = strip.height
    }

    /// The brightness `frame` may be sent at: `brightness`, lowered so the estimated current
    /// stays within `limit` milliamps.
    public static func limitedBrightness(for frame: PixelFrame, brightness: Double, limit: Double?) -> Double {
        let wanted = max(0, min(1, brightness))
        guard let limit else { return wanted }
        let channels = frame.pixels.reduce(0) { $0 + Int($1.red) + Int($1.green) + Int($1.blue) }
        let idle = Double(frame.pixels.count) * idleMilliamps
        let lit = Double(channels) / 255 * milliampsPerChannel * wanted
        guard lit + idle > limit, lit > 0 else { return wanted }
        return wanted * max(0, limit - idle) / lit
    }

    /// The frame, dimmed to stay within the current limit.
    public func show(_ frame: PixelFrame, brightness: Double) async throws {
        requestedBrightness = nil
        let level = Self.limitedBrightness(for: frame, brightness: brightness * Double(strip.brightness) / 255, limit: currentLimit)
        var scaled = strip
        scaled.brightness = Int((level * 255).rounded(.down))
        lastBrightness = Double(scaled.brightness) / 255
        _ = try spi.transfer(scaled.frame(frame.pixels.map { ($0.red, $0.green, $0.blue) }))
        requestedBrightness = brightness
    }

    /// A strip takes its whole length every time; when nothing changed at the same brightness
    /// it keeps what it shows.
    public func show(_ frame: PixelFrame, brightness: Double, changed: [PixelRect]) async throws {
        if changed.isEmpty, brightness == requestedBrightness { return }
        try await show(frame, brightness: brightness)
    }

    /// Every LED black.
    public func darken() async {
        _ = try? spi.transfer(strip.frame(Array(repeating: (0, 0, 0), count: width * height)))
        lastBrightness = 0
        requestedBrightness = nil
    }
}

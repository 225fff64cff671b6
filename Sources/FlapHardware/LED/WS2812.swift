import FlapCore

/// WS2812 ("NeoPixel") LEDs driven from a SPI MOSI line: every data bit becomes three SPI bits
/// at 2.4 MHz (110 for a 1, 100 for a 0: 0.83 µs or 0.42 µs high in a 1.25 µs bit), colours in
/// G, R, B order, most significant bit first, then at least 50 µs of zeros to latch.
public struct WS2812Strip: Sendable, Equatable {
    /// The SPI clock that makes three SPI bits one WS2812 bit.
    public static let spiHz = 2_400_000
    /// Zero bytes after the data: 24 × 8 bits at 2.4 MHz = 80 µs, over the 50 µs the LEDs need.
    public static let resetBytes = 24

    /// How the strip runs: every row left to right, or back and forth.
    public enum Wiring: String, Sendable, CaseIterable { case progressive, serpentine }

    /// LEDs across.
    public let width: Int
    /// LEDs down.
    public let height: Int
    /// How the strip runs through the rows.
    public var wiring: Wiring
    /// 0…255, applied to every channel: the global brightness that bounds the current.
    public var brightness: Int

    /// An encoder for `width` × `height` LEDs; refused when there are none.
    public init(width: Int, height: Int = 1, wiring: Wiring = .serpentine, brightness: Int = 255) throws(WS2812Error) {
        guard width > 0, height > 0 else { throw WS2812Error("a strip or matrix needs at least one LED, not \(width)×\(height)") }
        guard (0...255).contains(brightness) else { throw WS2812Error("brightness must be 0 to 255, not \(brightness)") }
        self.width = width
        self.height = height
        self.wiring = wiring
        self.brightness = brightness
    }

    /// The LED index along the wire for pixel (x, y): rows in order; serpentine rows alternate
    /// direction, starting left to right.
    public func index(x: Int, y: Int) -> Int {
        wiring == .serpentine && y % 2 == 1 ? y * width + (width - 1 - x) : y * width + x
    }

    /// The SPI bytes for `colours` (row-major red, green, blue per pixel).
    public func frame(_ colours: [(red: UInt8, green: UInt8, blue: UInt8)]) -> [UInt8] {
        precondition(colours.count == width * height, "one colour per pixel")
        var ordered = [UInt8](repeating: 0, count: colours.count * 3)
        for y in 0..<height {
            for x in 0..<width {
                let c = colours[y * width + x], led = index(x: x, y: y)
                ordered[led * 3] = scaled(c.green)
                ordered[led * 3 + 1] = scaled(c.red)
                ordered[led * 3 + 2] = scaled(c.blue)
            }
        }
        return Self.encode(ordered) + Array(repeating: 0, count: Self.resetBytes)
    }

    /// A one-bit image: lit pixels white at the strip's brightness.
    public func frame(_ image: Bitmap) -> [UInt8] {
        frame((0..<(width * height)).map { i in image[i % width, i / width] ? (255, 255, 255) : (0, 0, 0) })
    }

    private func scaled(_ value: UInt8) -> UInt8 { UInt8((Int(value) * brightness + 127) / 255) }

    /// Each byte's bits, most significant first, as 3-bit symbols packed into SPI bytes.
    static func encode(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 3)
        for byte in bytes {
            var symbols: UInt32 = 0
            for bit in (0..<8).reversed() { symbols = symbols << 3 | (byte >> UInt8(bit) & 1 == 1 ? 0b110 : 0b100) }
            out += [UInt8(symbols >> 16 & 0xFF), UInt8(symbols >> 8 & 0xFF), UInt8(symbols & 0xFF)]
        }
        return out
    }
}

/// An encoder that cannot be built, and why.
public struct WS2812Error: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong with it.
    public var description: String
    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}

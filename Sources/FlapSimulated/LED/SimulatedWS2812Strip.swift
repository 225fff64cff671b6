import FlapCore
import FlapHardware
import Synchronization

/// WS2812 LEDs on a simulated SPI bus at 2.4 MHz: the stream read as the first LED reads it
/// (a short high a 0, a long high a 1; 24 bits GRB per LED, each LED keeping the first 24 and
/// passing the rest on), latched by a low of at least 50 µs. Anything else is recorded as a
/// problem, as a flicker would be on the real strip.
public final class SimulatedWS2812Strip: SPIDevice {
    /// Its name.
    public let name: String
    /// The SPI clock a strip is driven at.
    public let speedHz = WS2812Strip.spiHz
    /// LEDs on the strip.
    public let count: Int
    /// How the strip is laid out as a matrix, for ``picture``.
    public let layoutWidth: Int
    /// How the strip runs along the rows.
    public let layoutWiring: WS2812Strip.Wiring
    private let state: Mutex<State>

    struct State {
        var leds: [RGB]
        var latches = 0
        var problems: [String] = []
    }

    /// A strip of `count` LEDs, laid out `width` wide as `wiring` says.
    public init(count: Int, width: Int? = nil, wiring: WS2812Strip.Wiring = .serpentine, name: String = "simulated WS2812 strip") {
        self.name = name
        self.count = count
        layoutWidth = width ?? count
        layoutWiring = wiring
        state = Mutex(State(leds: Array(repeating: .black, count: count)))
    }

    /// Decodes the SPI bits into each LED's colour, latching on the reset gap.
    public func transfer(_ bytes: [UInt8]) throws -> [UInt8] {
        var bits: [UInt8] = []
        bits.reserveCapacity(bytes.count * 8 / 3)
        var problem: String?
        var symbol = 0, symbolBits = 0, index = 0
        // Every SPI bit lasts 1/2.4 MHz; three make one LED bit.
        outer: for byte in bytes {
            for b in (0..<8).reversed() {
                symbol = symbol << 1 | Int(byte >> UInt8(b) & 1)
                symbolBits += 1
                index += 1
                guard symbolBits == 3 else { continue }
                switch symbol {
                case 0b110: bits.append(1)
                case 0b100: bits.append(0)
                case 0b000: break outer
                default: problem = "SPI bit \(index - 3): \(String(symbol, radix: 2)) is neither 110 nor 100"; break outer
                }
                symbol = 0
                symbolBits = 0
            }
        }
        let lowTail = bytes.reversed().prefix { $0 == 0 }.count * 8
        let latched = Double(lowTail) / Double(speedHz) >= 50e-6
        state.withLock { s in
            if let problem { s.problems.append(problem); return }
            if bits.count % 24 != 0 { s.problems.append("\(bits.count) data bits: not whole LEDs") }
            guard latched else { s.problems.append("no latch: the line was low for under 50 µs after the data"); return }
            for led in 0..<min(count, bits.count / 24) {
                func byte(_ k: Int) -> UInt8 { (0..<8).reduce(0) { $0 << 1 | bits[led * 24 + k * 8 + $1] } }
                s.leds[led] = RGB(byte(1), byte(0), byte(2))
            }
            s.latches += 1
        }
        return Array(repeating: 0, count: bytes.count)
    }

    /// Nothing to close.
    public func close() {}

    /// Each LED's colour, in chain order.
    public var leds: [RGB] { state.withLock { $0.leds } }
    /// Frames latched.
    public var latches: Int { state.withLock { $0.latches } }
    /// What was wrong with the bits received.
    public var problems: [String] { state.withLock { $0.problems } }

    /// The LEDs as a `width`-wide picture, the strip wired `wiring`.
    public func picture(width: Int, wiring: WS2812Strip.Wiring) -> PixelFrame {
        let height = count / width
        let leds = self.leds
        var frame = PixelFrame(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let led = wiring == .serpentine && y % 2 == 1 ? y * width + (width - 1 - x) : y * width + x
                frame.setPixel(x: x, y: y, leds[led])
            }
        }
        return frame
    }
}

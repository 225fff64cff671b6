import FlapCore
import FlapHardware
import Testing

/// The WS2812 SPI stream read back as the LEDs read it: bit timing against the WS2812B
/// datasheet (T0H 0.40 µs, T1H 0.80 µs, each ±0.15 µs; a bit 1.25 µs ±0.6 µs; reset ≥ 50 µs low).
@Suite struct WS2812Tests {
    static let spiBit = 1.0 / Double(WS2812Strip.spiHz) * 1e6  // µs

    /// The pulses on the line: (high µs, low µs) per WS2812 bit, and the low tail.
    func pulses(_ stream: [UInt8]) -> (bits: [(high: Double, low: Double)], tail: Double) {
        let levels: [Bool] = stream.flatMap { byte -> [Bool] in (0..<8).reversed().map { (byte >> UInt8($0)) & 1 == 1 } }
        var bits: [(Double, Double)] = []
        var i = 0
        while i < levels.count, levels[i] {
            var high = 0, low = 0
            while i < levels.count, levels[i] { high += 1; i += 1 }
            while i < levels.count, !levels[i], high + low < 3 { low += 1; i += 1 }
            bits.append((Double(high) * Self.spiBit, Double(low) * Self.spiBit))
        }
        return (bits, Double(levels.count - i) * Self.spiBit)
    }

    func decode(_ stream: [UInt8]) -> [UInt8] {
        let (bits, _) = pulses(stream)
        return stride(from: 0, to: bits.count, by: 8).map { start in
            bits[start..<start + 8].reduce(UInt8(0)) { $0 << 1 | ($1.high > 0.6 ? 1 : 0) }
        }
    }

    @Test func everyBitMeetsTheTimingAndTheColoursReadBackInGRBOrder() throws {
        let strip = try WS2812Strip(width: 3, height: 1)
        let stream = strip.frame([(255, 0, 0), (0, 255, 0), (0x12, 0x34, 0xA5)])
        let (bits, tail) = pulses(stream)
        #expect(bits.count == 9 * 8)
        for bit in bits {
            let total = bit.high + bit.low
            #expect(abs(total - 1.25) <= 0.6)
            #expect(abs(bit.high - 0.40) <= 0.15 || abs(bit.high - 0.80) <= 0.15)
        }
        #expect(tail >= 50)
        #expect(decode(stream) == [0, 255, 0, 255, 0, 0, 0x34, 0x12, 0xA5])
    }

    @Test func serpentineRowsRunBackAndBrightnessScalesEveryChannel() throws {
        var image = Bitmap(width: 3, height: 2)
        image[0, 0] = true  // LED 0
        image[0, 1] = true  // row 1 runs right to left: LED 5
        let serpentine = try WS2812Strip(width: 3, height: 2, wiring: .serpentine, brightness: 64)
        let leds = decode(serpentine.frame(image))
        #expect(leds.count == 18)
        #expect(Array(leds[0..<3]) == [64, 64, 64] && Array(leds[15..<18]) == [64, 64, 64])
        #expect(leds[3..<15].allSatisfy { $0 == 0 })
        let progressive = try WS2812Strip(width: 3, height: 2, wiring: .progressive)
        let plain = decode(progressive.frame(image))
        #expect(Array(plain[9..<12]) == [255, 255, 255])
        #expect(throws: WS2812Error.self) { try WS2812Strip(width: 3, brightness: 300) }
    }
}

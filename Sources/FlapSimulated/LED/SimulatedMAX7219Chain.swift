import FlapCore
import FlapHardware
import Synchronization

/// A cascade of MAX7219 chips behind 8×8 LED blocks, on a simulated SPI bus: each transfer
/// shifts one 16-bit word into every chip (the first word ends in the chip furthest down the
/// chain), and each chip acts on its word as the datasheet says. The blocks sit as on the
/// common 4-in-1 modules mounted upright (luma's block orientation 0): the last chip drives the
/// bottom-right block, earlier chips go leftwards, then upwards; a digit register is a block's
/// column, bit 0 its top row.
public final class SimulatedMAX7219Chain: SPIDevice {
    /// Its name.
    public let name: String
    /// Its clock.
    public let speedHz = 10_000_000
    /// Pixels across.
    public let width: Int
    /// Pixels down.
    public let height: Int
    private let state: Mutex<State>

    /// One chip's registers.
    public struct Chip: Sendable, Equatable {
        /// Its eight digit registers (rows of 8 pixels).
        public var digits = [UInt8](repeating: 0, count: 8)
        /// Its intensity, 0–15.
        public var intensity = 0
        /// Digits scanned, less one.
        public var scanLimit = 0
        /// BCD decoding per digit (0: none).
        public var decodeMode = 0
        /// Whether every LED is lit for a test.
        public var displayTest = false
        /// A MAX7219 powers up shut down.
        public var shutdown = true
    }

    struct State {
        var chips: [Chip]
        var transfers = 0
        var problems: [String] = []
    }

    /// A cascade `width` by `height` pixels, all registers zero.
    public init(width: Int, height: Int = 8, name: String = "simulated MAX7219 cascade") {
        precondition(width % 8 == 0 && height % 8 == 0 && width > 0 && height > 0, "whole 8×8 blocks")
        self.name = name
        self.width = width
        self.height = height
        state = Mutex(State(chips: Array(repeating: Chip(), count: width / 8 * height / 8)))
    }

    /// Shifts `bytes` through the chips, latching each chip's register write.
    public func transfer(_ bytes: [UInt8]) throws -> [UInt8] {
        try state.withLock { s in
            guard bytes.count == s.chips.count * 2 else {
                throw HardwareError(
                    device: name, problem: "a transfer of \(bytes.count) bytes; a cascade of \(s.chips.count) chips takes \(s.chips.count * 2)")
            }
            s.transfers += 1
            let count = s.chips.count
            for k in 0..<count {
                let register = bytes[2 * k] & 0x0F, value = bytes[2 * k + 1]
                let chip = count - 1 - k
                switch register {
                case 0x00: break
                case 0x01...0x08: s.chips[chip].digits[Int(register) - 1] = value
                case 0x09:
                    s.chips[chip].decodeMode = Int(value)
                    if value != 0 { s.problems.append("chip \(chip): BCD decoding on (\(value)); a matrix needs it off") }
                case 0x0A: s.chips[chip].intensity = Int(value & 0x0F)
                case 0x0B: s.chips[chip].scanLimit = Int(value & 0x07)
                case 0x0C: s.chips[chip].shutdown = value & 1 == 0
                case 0x0F: s.chips[chip].displayTest = value & 1 == 1
                default: s.problems.append("chip \(chip): no register \(register)")
                }
            }
        }
        return Array(repeating: 0, count: bytes.count)
    }

    /// Nothing to close.
    public func close() {}

    /// Each chip's registers, the first nearest the input.
    public var chips: [Chip] { state.withLock { $0.chips } }
    /// Transfers made.
    public var transfers: Int { state.withLock { $0.transfers } }
    /// Words no MAX7219 would take well.
    public var problems: [String] { state.withLock { $0.problems } }

    /// The LEDs lit now.
    public var image: Bitmap { state.withLock { Self.image(of: $0.chips, width: width, height: height) } }

    static func image(of chips: [Chip], width: Int, height: Int) -> Bitmap {
        var image = Bitmap(width: width, height: height)
        let across = width / 8, down = height / 8
        for (chip, state) in chips.enumerated() where !state.shutdown {
            // The last chip is the bottom-right block; earlier ones leftwards, then upwards.
            let fromEnd = chips.count - 1 - chip
            let bx = across - 1 - fromEnd % across, by = down - 1 - fromEnd / across
            for digit in 0..<8 {
                let value: UInt8 = state.displayTest ? 0xFF : (digit <= state.scanLimit ? state.digits[digit] : 0)
                for y in 0..<8 where value & (1 << UInt8(y)) != 0 { image[bx * 8 + digit, by * 8 + y] = true }
            }
        }
        return image
    }
}

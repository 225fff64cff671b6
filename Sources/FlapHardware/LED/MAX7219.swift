import FlapCore

/// A cascade of MAX7219 drivers, each behind an 8×8 LED block, daisy-chained on SPI: what to
/// send for an image. Every transfer carries one 16-bit word (register, value) per device, the
/// word for the last device in the chain first; a register row (digit) of every device goes in
/// one transfer.
///
/// Geometry, as on the common 4-in-1 modules: blocks tile the image left to right, top to bottom;
/// the chain enters at the bottom-right block; digit d of a block is its column d, bit y its row y.
/// `blockOrientation` turns each block's content (0, 90, −90, 180 degrees counter-clockwise, as
/// luma.led_matrix's block_orientation) for modules whose blocks are mounted turned;
/// `reverseBlocks` mirrors the order of blocks in a single-row cascade.
public struct MAX7219Cascade: Sendable, Equatable {
    /// The chip's registers that flapd writes.
    public enum Register: UInt8, Sendable {
        case noop = 0x00, decodeMode = 0x09, intensity = 0x0A, scanLimit = 0x0B, shutdown = 0x0C, displayTest = 0x0F
        /// Digit (row register) `d`, 0…7.
        static func digit(_ d: Int) -> UInt8 { UInt8(1 + d) }
    }

    /// Pixels across the cascade.
    public let width: Int
    /// Pixels down the cascade.
    public let height: Int
    /// Degrees each block's content is turned: 0, 90, −90 or 180.
    public var blockOrientation: Int
    /// Whether the blocks of a single row come in reverse order.
    public var reverseBlocks: Bool
    /// 0…15, the MAX7219's own scale (luma's contrast / 16).
    public var intensity: Int

    /// Devices in the chain.
    public var devices: Int { (width / 8) * (height / 8) }

    /// A cascade covering `width` × `height` pixels (multiples of 8); refused otherwise.
    public init(width: Int, height: Int = 8, blockOrientation: Int = 0, reverseBlocks: Bool = false, intensity: Int = 7) throws(MAX7219Error) {
        guard width > 0, height > 0, width % 8 == 0, height % 8 == 0 else {
            throw MAX7219Error("a MAX7219 cascade is a whole number of 8×8 blocks; \(width)×\(height) is not")
        }
        guard [0, 90, -90, 180].contains(blockOrientation) else {
            throw MAX7219Error("block orientation must be 0, 90, -90 or 180, not \(blockOrientation)")
        }
        guard (0...15).contains(intensity) else { throw MAX7219Error("intensity must be 0 to 15, not \(intensity)") }
        guard !reverseBlocks || height == 8 else {
            throw MAX7219Error("reversed block order is for a single row of blocks; this cascade is \(height / 8) rows high")
        }
        self.width = width
        self.height = height
        self.blockOrientation = blockOrientation
        self.reverseBlocks = reverseBlocks
        self.intensity = intensity
    }

    /// The same register and value for every device: one transfer.
    public func broadcast(_ register: Register, _ value: UInt8) -> [UInt8] {
        Array(repeating: [register.rawValue, value], count: devices).flatMap { $0 }
    }

    /// The transfers that wake the chain: scan all eight digits, no BCD decoding, test mode off,
    /// the intensity, every digit blank, then out of shutdown (blank first, so nothing flashes).
    public func initialisation() -> [[UInt8]] {
        [broadcast(.scanLimit, 7), broadcast(.decodeMode, 0), broadcast(.displayTest, 0), broadcast(.intensity, UInt8(intensity))]
            + frame(Bitmap(width: width, height: height)) + [broadcast(.shutdown, 1)]
    }

    /// Shutdown (all LEDs dark, settings kept): for the end.
    public func darkness() -> [[UInt8]] { [broadcast(.shutdown, 0)] }

    /// The eight transfers (one per digit) that show `image`, which must be the cascade's size.
    public func frame(_ image: Bitmap) -> [[UInt8]] {
        precondition(image.width == width && image.height == height, "an image the cascade's size")
        let placed = arranged(image)
        let blocksAcross = width / 8
        // Chain order from the last device: bottom-right block first, leftwards, then upwards.
        let blocks = stride(from: height / 8 - 1, through: 0, by: -1).flatMap { by in
            stride(from: blocksAcross - 1, through: 0, by: -1).map { bx in (bx, by) }
        }
        return (0..<8).map { digit in
            blocks.flatMap { (bx, by) -> [UInt8] in
                var value: UInt8 = 0
                for y in 0..<8 where placed[bx * 8 + digit, by * 8 + y] { value |= 1 << UInt8(y) }
                return [Register.digit(digit), value]
            }
        }
    }

    /// `image` with each block turned and the blocks reordered as the module is built.
    func arranged(_ image: Bitmap) -> Bitmap {
        var turned = image
        if blockOrientation != 0 {
            for by in stride(from: 0, to: height, by: 8) {
                for bx in stride(from: 0, to: width, by: 8) {
                    for y in 0..<8 {
                        for x in 0..<8 {
                            let (sx, sy) = Self.source(x: x, y: y, turnedBy: blockOrientation)
                            turned[bx + x, by + y] = image[bx + sx, by + sy]
                        }
                    }
                }
            }
        }
        guard reverseBlocks else { return turned }
        var reversed = turned
        let blocksAcross = width / 8
        for y in 0..<height {
            for b in 0..<blocksAcross {
                for x in 0..<8 { reversed[8 * (blocksAcross - 1 - b) + x, y] = turned[b * 8 + x, y] }
            }
        }
        return reversed
    }

    /// Where pixel (x, y) of a block turned counter-clockwise by `angle` comes from.
    static func source(x: Int, y: Int, turnedBy angle: Int) -> (Int, Int) {
        switch angle {
        case 90: (7 - y, x)
        case -90: (y, 7 - x)
        case 180: (7 - x, 7 - y)
        default: (x, y)
        }
    }
}

/// A cascade that cannot be built, and why.
public struct MAX7219Error: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong with it.
    public var description: String
    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}

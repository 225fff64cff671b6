/// What the stepping engine drives: every module's coils out, every module's home sensor in, in
/// one exchange. Synchronous: it is called from the stepping thread between steps.
public protocol StepperIO: Sendable {
    var name: String { get }
    var modules: Int { get }
    /// Applies `coils` (one 4-bit pattern per module, 0 = released) and returns each module's
    /// hall sensor (true = magnet), as read just before the coils changed.
    func exchange(coils: [UInt8]) throws -> [Bool]
    /// Releases every coil and the device; idempotent.
    func release()
}

/// Chainlink Driver boards on a SPI bus: per board of six modules, four 74HC595 bytes out
/// (coils) and one 74HC165 byte in (sensors), daisy-chained, board 0 nearest the Pi.
///
/// Out, in each board's four bytes counted from the Pi: module 0 low and 1 high nibble of byte 0,
/// module 2 low nibble of byte 1, module 3 high nibble of byte 2, modules 4 and 5 the low and high
/// nibbles of byte 3 (the board's LEDs and loopback outputs take the other two nibbles, kept off).
/// The byte for the farthest register goes first on the wire. In: the first byte clocked in is
/// board 0's, bit m is module m's sensor (bits 6–7 are loopbacks). See hardware/direct-drive.md.
public struct ShiftRegisterChain: StepperIO {
    /// The SPI device at the chain's start.
    public let spi: any SPIDevice
    /// How many modules.
    public let modules: Int
    /// The device's name, for errors.
    public var name: String { spi.name }
    /// Boards in the chain (six modules each; the last may be partly used).
    public var boards: Int { (modules + 5) / 6 }
    static let byteOfModule = [0, 0, 1, 2, 3, 3]

    /// A chain of `modules` modules on `spi`.
    public init(spi: any SPIDevice, modules: Int) {
        self.spi = spi
        self.modules = modules
    }

    /// The bytes to clock out for `coils`.
    public func frame(coils: [UInt8]) -> [UInt8] {
        var frame = [UInt8](repeating: 0, count: boards * 4)
        for (i, pattern) in coils.prefix(modules).enumerated() {
            let index = frame.count - 1 - (i / 6) * 4 - Self.byteOfModule[i % 6]
            frame[index] |= (pattern & 0x0F) << (i % 2 == 0 ? 0 : 4)
        }
        return frame
    }

    /// Each module's sensor in the bytes clocked in.
    public func sensors(in received: [UInt8]) -> [Bool] {
        (0..<modules).map { (i: Int) -> Bool in
            let mask = UInt8(1) << UInt8(i % 6)
            return i / 6 < received.count && received[i / 6] & mask != 0
        }
    }

    /// Clocks every coil out and every sensor in, in one transfer.
    public func exchange(coils: [UInt8]) throws -> [Bool] {
        sensors(in: try spi.transfer(frame(coils: coils)))
    }

    /// Every coil off.
    public func release() {
        _ = try? spi.transfer(frame(coils: Array(repeating: 0, count: modules)))
        spi.close()
    }
}

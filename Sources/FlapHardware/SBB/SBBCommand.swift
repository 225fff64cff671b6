/// What an SBB/annax split-flap module is told (adfinis/sbb-fallblatt's protocol): one byte of
/// command, the module's address, and its value when it takes one. Each frame follows a BREAK.
public enum SBBCommand: Sendable, Equatable {
    /// `C0`: turn to blade `position` (0 to the module's blades − 1).
    case show(Int)
    /// `D0`: which blade it shows (one byte).
    case position
    /// `DF`: its serial number (four bytes).
    case serial
    /// `D4`: its firmware's version (two bytes).
    case version
    /// `DD`: what it shows (one byte: 1 hours, 2 minutes; other numbers other blade sets).
    case type
    /// `C5`: back to its zero blade.
    case zero
    /// `C6`: on by one blade.
    case step
    /// `CE`: its new address.
    case setAddress(Int)

    /// The command's byte.
    public var code: UInt8 {
        switch self {
        case .show: 0xC0
        case .position: 0xD0
        case .serial: 0xDF
        case .version: 0xD4
        case .type: 0xDD
        case .zero: 0xC5
        case .step: 0xC6
        case .setAddress: 0xCE
        }
    }

    /// The bytes the module answers with; 0 for what it does not answer.
    public var answerLength: Int {
        switch self {
        case .position, .type: 1
        case .version: 2
        case .serial: 4
        case .show, .zero, .step, .setAddress: 0
        }
    }

    /// `0xD0` as the protocol's documents write it: `D0`.
    public static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return digits.count == 1 ? "0" + digits : digits
    }

    /// The frame for the module at `address` (0 to 255): `FF`, the command, the address, and the
    /// value. A value or address that does not fit its byte is refused, never wrapped.
    public func frame(to address: Int) throws(SBBFrameError) -> [UInt8] {
        guard (0...255).contains(address) else { throw .outOfRange("an address", address) }
        var frame: [UInt8] = [0xFF, code, UInt8(address)]
        switch self {
        case .show(let blade):
            guard (0...254).contains(blade) else { throw .outOfRange("a blade", blade) }
            frame.append(UInt8(blade))
        case .setAddress(let new):
            guard (0...255).contains(new) else { throw .outOfRange("an address", new) }
            frame.append(UInt8(new))
        case .position, .serial, .version, .type, .zero, .step: break
        }
        return frame
    }
}

/// A frame that cannot be said: a number outside the byte it goes in.
public enum SBBFrameError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `what` is `value`, which no byte of the frame can carry.
    case outOfRange(String, Int)

    /// Why, in words.
    public var description: String {
        switch self {
        case .outOfRange(let what, let value): "\(what) is 0 to \(what == "a blade" ? 254 : 255), not \(value)"
        }
    }
}

/// The bus's timing: 19200 baud 8N1, each frame after a BREAK.
public enum SBBLine {
    /// The bus's speed.
    public static let baudRate = 19_200
    /// How long the line is held in BREAK before a frame (adfinis/sbb-fallblatt holds 50 ms; its
    /// alphanumeric panels 1 ms).
    public static let breakTime = Duration.milliseconds(50)
    /// The settings of its serial port.
    public static let settings = SerialSettings(baudRate: baudRate)

    /// How long `bytes` take on the bus, 10 bits a byte, rounded up to the microsecond.
    public static func airtime(of bytes: Int) -> Duration {
        .microseconds((Int64(bytes) * 10_000_000 + Int64(baudRate) - 1) / Int64(baudRate))
    }
}

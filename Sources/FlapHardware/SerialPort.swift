/// A byte stream to a device: a Chainlink controller, a heart-rate sensor, an ANT+ stick.
///
/// Implementation requirements:
/// - ``write(_:)`` returns when every byte has been handed to the device (or the kernel's
///   buffer for it); a short write is retried, never reported as success.
/// - ``read(maximum:timeout:)`` returns the bytes available, at least one, waiting at most
///   `timeout`; it returns an empty array on timeout, never throws for one.
/// - A device that disappears (unplugged) throws a ``HardwareError``; the caller reconnects.
/// - ``close()`` is idempotent.
public protocol SerialPort: Sendable {
    /// The device's name, for messages (`/dev/splitflap0`).
    var name: String { get }
    func write(_ bytes: [UInt8]) async throws
    func read(maximum: Int, timeout: Duration) async throws -> [UInt8]
    func close() async
    /// Holds the line in BREAK (low) for `duration` once what was written has gone out, as a
    /// bus of SBB/annax modules needs before each frame.
    func sendBreak(for duration: Duration) async throws
}

extension SerialPort {
    /// A port that cannot hold the line low says so.
    public func sendBreak(for duration: Duration) async throws {
        throw HardwareError(device: name, problem: "this port cannot send a BREAK", remedy: "use a USB RS-485 adapter that can (FTDI or CH340)")
    }
}

/// Line settings of a serial port.
public struct SerialSettings: Sendable, Equatable {
    /// Bits a second.
    public var baudRate: Int
    /// Data bits a character.
    public var dataBits: Int
    /// The parity bit, if any.
    public var parity: Parity
    /// Stop bits.
    public var stopBits: Int

    /// A parity bit's rule.
    public enum Parity: String, Sendable { case none, even, odd }

    /// Line settings of `baudRate`, 8N1 unless given.
    public init(baudRate: Int, dataBits: Int = 8, parity: Parity = .none, stopBits: Int = 1) {
        self.baudRate = baudRate
        self.dataBits = dataBits
        self.parity = parity
        self.stopBits = stopBits
    }

    /// 230400 8N1: the Chainlink controller's link.
    public static let chainlink = SerialSettings(baudRate: 230_400)
    /// The RS-485 split-flap modules' bus: 9600 baud, 8N1.
    public static let rs485 = SerialSettings(baudRate: 9600)
}

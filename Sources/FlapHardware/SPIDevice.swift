/// A SPI bus device: shift-register chains, MAX7219 cascades, WS2812 strips driven by SPI.
///
/// Implementation requirements:
/// - ``transfer(_:)`` clocks out every byte in order, with chip select held for the whole
///   transfer, and returns the bytes clocked in at the same time (same count).
/// - It is synchronous: the stepping thread calls it between steps, so it returns as soon as
///   the bytes have crossed the bus and never waits on anything else.
/// - Speed and mode are fixed when the device is opened; a transfer never changes them.
/// - Failures throw a ``HardwareError`` naming the device.
public protocol SPIDevice: Sendable {
    var name: String { get }
    /// Clock speed in hertz.
    var speedHz: Int { get }
    func transfer(_ bytes: [UInt8]) throws -> [UInt8]
    /// Releases the device; idempotent.
    func close()
}

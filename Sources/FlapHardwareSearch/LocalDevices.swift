import FoundationEssentials

/// What does not answer but is there or not: framebuffers (an HDMI screen or TV), SPI devices
/// (a MAX7219 chain, WS2812 through SPI) and GPIO chips (steppers, shift registers). Their size
/// and wiring are the owner's to say; a test pattern confirms them.
public struct LocalDevices: Sendable, Equatable, Encodable {
    /// `fb0`…: a screen or TV.
    public var framebuffers: [String]
    /// `spidev0.0`…
    public var spi: [String]
    /// `gpiochip0`…
    public var gpioChips: [String]

    /// The devices under `devices` (`/dev`, or a folder a test made), by name, in order.
    public init(devices: String = "/dev") {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: devices)) ?? []).sorted()
        func matching(_ prefix: String) -> [String] { names.filter { $0.hasPrefix(prefix) }.map { devices + "/" + $0 } }
        framebuffers = matching("fb")
        spi = matching("spidev")
        gpioChips = matching("gpiochip")
    }
}

import FlapCore

/// A MAX7219 cascade on a SPI device: each frame as its eight digit transfers, brightness as
/// the intensity register (0 → shutdown).
public actor MAX7219Display: PixelDisplay {
    /// The SPI device's name, for errors and status.
    public nonisolated let name: String
    /// Pixels across.
    public nonisolated let width: Int
    /// Pixels down.
    public nonisolated let height: Int
    /// One colour of LED.
    public nonisolated let isMonochrome = true
    private let spi: any SPIDevice
    private let cascade: MAX7219Cascade
    private var awake = false
    private var intensity: Int?

    /// A display of `cascade` on `spi`.
    public init(spi: any SPIDevice, cascade: MAX7219Cascade) {
        self.spi = spi
        self.cascade = cascade
        name = spi.name
        width = cascade.width
        height = cascade.height
    }

    /// Brightness 0…1 as the MAX7219's 16 steps (1/32 to 31/32 duty); 0 is shut down.
    public static func intensity(for brightness: Double) -> Int? {
        brightness <= 0 ? nil : max(0, min(15, Int((brightness * 16).rounded(.up)) - 1))
    }

    /// The frame's lit pixels, its brightness as the chips' intensity.
    public func show(_ frame: PixelFrame, brightness: Double) async throws {
        guard let level = Self.intensity(for: brightness) else { return await darken() }
        if !awake {
            var waking = cascade
            waking.intensity = level
            for transfer in waking.initialisation() { _ = try spi.transfer(transfer) }
            awake = true
            intensity = level
        } else if intensity != level {
            _ = try spi.transfer(cascade.broadcast(.intensity, UInt8(level)))
            intensity = level
        }
        for transfer in cascade.frame(frame.bitmap) { _ = try spi.transfer(transfer) }
    }

    /// Nothing changed and the cascade is awake at that intensity: the chips still show it.
    public func show(_ frame: PixelFrame, brightness: Double, changed: [PixelRect]) async throws {
        if changed.isEmpty, awake, let level = Self.intensity(for: brightness), level == intensity { return }
        try await show(frame, brightness: brightness)
    }

    /// Every chip in shutdown.
    public func darken() async {
        for transfer in cascade.darkness() { _ = try? spi.transfer(transfer) }
        awake = false
        intensity = nil
    }
}

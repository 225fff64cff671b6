import FlapCore

/// A device that shows whole frames of pixels: an LED matrix or strip, a screen.
///
/// Implementation requirements:
/// - ``show(_:brightness:)`` puts `frame` (the display's size) on the device at `brightness`
///   (0 dark … 1 full) as the device best can: a register, a scale on every pixel, the
///   library's setting. The first frame wakes the device.
/// - ``show(_:brightness:changed:)`` is told where `frame` differs from the frame shown
///   before it; a display that still holds that frame at that brightness may update only those
///   rectangles (an empty list: nothing changed). Without it, the whole frame is shown.
/// - ``darken()`` leaves every LED dark (or the screen black); it may be called at any time,
///   more than once; the next ``show(_:brightness:)`` wakes the device again.
/// - Failures throw a ``HardwareError`` naming the device.
public protocol PixelDisplay: Sendable {
    var name: String { get }
    var width: Int { get }
    var height: Int { get }
    /// One colour (every lit pixel the same) or full colour.
    var isMonochrome: Bool { get }
    func show(_ frame: PixelFrame, brightness: Double) async throws
    func show(_ frame: PixelFrame, brightness: Double, changed: [PixelRect]) async throws
    func darken() async
}

extension PixelDisplay {
    /// The whole frame, for displays that cannot send only what changed.
    public func show(_ frame: PixelFrame, brightness: Double, changed: [PixelRect]) async throws {
        try await show(frame, brightness: brightness)
    }
}

import FlapCore

/// A panel that draws the board in pixels (an LED matrix, a screen), and so can show a picture
/// drawn elsewhere in its place: the room's plot on a kiosk. A capability a panel may have, asked
/// for with `as? any DrawsPixels`.
public protocol DrawsPixels: Panel {
    /// Its pixels across and down, and whether each is only lit or dark.
    nonisolated var surface: (width: Int, height: Int, monochrome: Bool) { get }
    /// The most frames a second it draws.
    nonisolated var framesPerSecond: Int { get }
    /// Shows `frame` in place of the board; it becomes what the panel rests on.
    func present(_ frame: PixelFrame) async throws
}

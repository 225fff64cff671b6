import FlapCore

/// Draws a simulated LED panel or screen in a terminal: two pixels a character cell (the upper
/// half block in the top pixel's colour on the bottom pixel's), in 24-bit colour, redrawn in
/// place when the picture changes, at most 30 times a second.
public struct LEDTerminalRenderer: Sendable {
    /// Where it draws.
    public var write: @Sendable (String) -> Void
    /// Pictures wider than this many columns are shown scaled down (every n-th pixel).
    public var maximumColumns: Int

    /// Draws on `write`, at most `maximumColumns` wide.
    public init(maximumColumns: Int = 160, write: @escaping @Sendable (String) -> Void) {
        self.write = write
        self.maximumColumns = maximumColumns
    }

    /// `frame` as lines of half blocks, each ending with the colours reset.
    public static func text(_ frame: PixelFrame, maximumColumns: Int = 160) -> String {
        HalfBlockText.text(frame, maximumColumns: maximumColumns)
    }

    /// Draws `device` until cancelled.
    public func run<C: Clock>(_ device: some SimulatedPixelDevice, clock: C) async where C.Duration == Duration {
        var shown: PixelFrame?
        var drawnRows = 0
        while !Task.isCancelled {
            let picture = device.picture
            if picture != shown {
                let text = Self.text(picture, maximumColumns: maximumColumns)
                write((drawnRows > 0 ? "\u{1B}[\(drawnRows)A\r" : "") + text)
                drawnRows = text.filter { $0 == "\n" }.count
                shown = picture
            }
            guard (try? await clock.sleep(for: .milliseconds(33), tolerance: nil)) != nil else { return }
        }
    }
}

import Wematch

/// Where the plot sits on a display: a square as tall as the display on its left (previous
/// BPM across, current BPM up, 40–200 on both), the legend in what is left on the right, and
/// how big hearts, lines and letters are for that size.
public struct PlotGeometry: Sendable, Equatable {
    /// The picture's width in pixels.
    public let width: Int
    /// The picture's height in pixels.
    public let height: Int
    /// The plot's square, in pixels: its left, top and side.
    public let left: Int, top: Int, side: Int
    /// Pixels between the square's edge and the axes (room for tick labels on large displays).
    public let margin: Int
    /// Hearts' half-width.
    public let heartRadius: Int
    /// Each pixel of a 5×7 letter drawn as scale × scale.
    public let textScale: Int
    /// Line thickness.
    public let stroke: Int

    /// The sizes for a picture of `width` by `height` pixels.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
        side = min(width, height)
        left = 0
        top = (height - side) / 2
        textScale = max(1, side / 180)
        margin = side >= 120 ? 22 * textScale : 1  // three digits and a tick
        heartRadius = max(2, side / 40)
        stroke = max(1, side / 240)
    }

    /// The axes' inner span in pixels.
    private var span: Double { Double(side - margin - 1 - heartRadius) }

    /// The pixel of a point (x: previous BPM, y: current BPM).
    public func pixel(_ point: HeartPoint) -> (x: Double, y: Double) {
        let axis = Room<ContinuousClock.Instant>.axis
        let width = axis.upperBound - axis.lowerBound
        let x = Double(left + margin) + (point.previous - axis.lowerBound) / width * span
        let y = Double(top + side - 1 - margin) - (point.current - axis.lowerBound) / width * span
        return (x, y)
    }

    /// Pixels a BPM spans on the plot.
    public var pixelsPerBPM: Double {
        let axis = Room<ContinuousClock.Instant>.axis
        return span / (axis.upperBound - axis.lowerBound)
    }

    /// The legend's box on the right, if there is room for one (at least five letters wide).
    public var legend: (left: Int, width: Int)? {
        let left = self.left + side + 2 * textScale
        let room = width - left
        return room >= 5 * 6 * textScale - textScale ? (left, room) : nil
    }
}

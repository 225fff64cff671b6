/// A rectangle of pixels: where a frame differs from the one before it.
public struct PixelRect: Sendable, Hashable {
    /// Its left edge.
    public var x: Int
    /// Its top edge.
    public var y: Int
    /// Pixels across.
    public var width: Int
    /// Pixels down.
    public var height: Int

    /// The rectangle from (`x`, `y`), `width` × `height`.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The whole of a `width` × `height` frame.
    public static func whole(width: Int, height: Int) -> PixelRect {
        PixelRect(x: 0, y: 0, width: width, height: height)
    }

    /// This rectangle's part inside a `width` × `height` frame (possibly empty).
    public func clipped(width: Int, height: Int) -> PixelRect {
        let left = max(0, x), top = max(0, y)
        let right = min(width, x + self.width), bottom = min(height, y + self.height)
        return PixelRect(x: left, y: top, width: max(0, right - left), height: max(0, bottom - top))
    }

    /// Whether it holds no pixel.
    public var isEmpty: Bool { width <= 0 || height <= 0 }
    /// The rows it covers.
    public var rows: Range<Int> { y..<(y + height) }
    /// The columns it covers.
    public var columns: Range<Int> { x..<(x + width) }
}

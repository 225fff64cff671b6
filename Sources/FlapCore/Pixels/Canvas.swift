/// A surface of coloured pixels: five methods, as rpi-rgb-led-matrix's `Canvas` has, so the
/// renderer draws the same way on an LED matrix, a strip, a screen or a picture.
///
/// Pixels outside the canvas are ignored, so drawing may run off an edge.
public protocol Canvas {
    var width: Int { get }
    var height: Int { get }
    mutating func setPixel(x: Int, y: Int, _ colour: RGB)
    /// Every pixel off (black).
    mutating func clear()
    /// Every pixel `colour`.
    mutating func fill(_ colour: RGB)
}

/// A canvas in memory: what the renderer draws and the display drivers send.
public struct PixelFrame: Canvas, Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// Row-major, top left first.
    public private(set) var pixels: [RGB]

    public init(width: Int, height: Int, colour: RGB = .black) {
        precondition(width >= 0 && height >= 0, "a frame has a size")
        self.width = width
        self.height = height
        pixels = Array(repeating: colour, count: width * height)
    }

    public subscript(x: Int, y: Int) -> RGB {
        (0..<width).contains(x) && (0..<height).contains(y) ? pixels[y * width + x] : .black
    }

    public mutating func setPixel(x: Int, y: Int, _ colour: RGB) {
        guard (0..<width).contains(x) && (0..<height).contains(y) else { return }
        pixels[y * width + x] = colour
    }

    public mutating func clear() { fill(.black) }

    public mutating func fill(_ colour: RGB) {
        for i in pixels.indices { pixels[i] = colour }
    }

    /// The lit pixels, for one-colour LEDs.
    public var bitmap: Bitmap {
        var image = Bitmap(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width where pixels[y * width + x].isLit { image[x, y] = true }
        }
        return image
    }
}

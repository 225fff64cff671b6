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
    /// A run of pixels from (`x`, `y`) rightwards; a canvas that can copy a row at once does.
    mutating func setPixels(x: Int, y: Int, _ row: UnsafeBufferPointer<RGB>)
    /// The same, each pixel `shade` (0…1) as bright.
    mutating func setPixels(x: Int, y: Int, _ row: UnsafeBufferPointer<RGB>, shade: Double)
}

extension Canvas {
    /// Pixel by pixel: a canvas with a faster way says so.
    public mutating func setPixels(x: Int, y: Int, _ row: UnsafeBufferPointer<RGB>) {
        for (i, colour) in row.enumerated() { setPixel(x: x + i, y: y, colour) }
    }

    /// Pixel by pixel, each scaled by `shade`.
    public mutating func setPixels(x: Int, y: Int, _ row: UnsafeBufferPointer<RGB>, shade: Double) {
        for (i, colour) in row.enumerated() { setPixel(x: x + i, y: y, colour.scaled(by: shade)) }
    }
}

/// A canvas in memory: what the renderer draws and the display drivers send.
public struct PixelFrame: Canvas, Sendable, Equatable {
    /// Pixels across.
    public let width: Int
    /// Pixels down.
    public let height: Int
    /// Row-major, top left first.
    public private(set) var pixels: [RGB]

    /// A frame `width` × `height` filled with `colour`.
    public init(width: Int, height: Int, colour: RGB = .black) {
        precondition(width >= 0 && height >= 0, "a frame has a size")
        self.width = width
        self.height = height
        pixels = Array(repeating: colour, count: width * height)
    }

    /// The pixel at (`x`, `y`); black outside the frame.
    public subscript(x: Int, y: Int) -> RGB {
        (0..<width).contains(x) && (0..<height).contains(y) ? pixels[y * width + x] : .black
    }

    /// Sets one pixel; outside the frame, nothing.
    public mutating func setPixel(x: Int, y: Int, _ colour: RGB) {
        guard (0..<width).contains(x) && (0..<height).contains(y) else { return }
        pixels[y * width + x] = colour
    }

    /// Black all over.
    public mutating func clear() { fill(.black) }

    /// A run of pixels copied at once, cut to the frame.
    public mutating func setPixels(x: Int, y: Int, _ row: UnsafeBufferPointer<RGB>) {
        withRun(x: x, y: y, count: row.count) { target, skipped, count in
            guard let source = row.baseAddress else { return }
            target.update(from: source + skipped, count: count)
        }
    }

    /// Faces are flat colour, so each run of one colour is scaled once.
    public mutating func setPixels(x: Int, y: Int, _ row: UnsafeBufferPointer<RGB>, shade: Double) {
        withRun(x: x, y: y, count: row.count) { target, skipped, count in
            var last = row[skipped], scaled = last.scaled(by: shade)
            for i in 0..<count {
                let colour = row[skipped + i]
                if colour != last {
                    last = colour
                    scaled = colour.scaled(by: shade)
                }
                target[i] = scaled
            }
        }
    }

    /// The part of a run of `count` pixels from (`x`, `y`) that lies on the frame: where it
    /// starts in memory, how many of the run's first pixels are off the left edge, how many remain.
    private mutating func withRun(x: Int, y: Int, count: Int, _ body: (UnsafeMutablePointer<RGB>, Int, Int) -> Void) {
        let skipped = max(0, -x), remaining = min(count, width - x) - skipped
        guard (0..<height).contains(y), remaining > 0 else { return }
        let width = self.width
        pixels.withUnsafeMutableBufferPointer { pixels in
            guard let base = pixels.baseAddress else { return }
            body(base + y * width + x + skipped, skipped, remaining)
        }
    }

    /// Every pixel `colour`.
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

import CompressNIO
import FlapCore
import NIOCore

/// A board as a PNG picture, drawn as on a screen (10×14 glyphs at twice their size, dark flaps
/// with their split) with a margin: what `flapctl preview --png` writes and the board resource is.
public enum BoardPNG {
    /// The border around the flaps, in pixels.
    public static let margin = 12

    /// A renderer for boards of `size` whose flap 62 is `flap62` (nil: the default for that size).
    public static func renderer(for size: BoardSize, flap62: Flap62? = nil) throws -> BoardRenderer {
        let extent = CellGeometry.large(scale: 2).extent(of: size)
        return try BoardRenderer(
            size: size, width: extent.width + 2 * margin, height: extent.height + 2 * margin, style: .screen, flap62: flap62)
    }

    /// The picture, `width` pixels wide when given (the board drawn as large as fits, centred;
    /// the height in proportion), else at twice the glyphs' size. Narrower than the smallest
    /// drawing of the board (5×7 glyphs), the smallest drawing is shrunk to fit, each pixel the
    /// average of those it covers: a thumbnail, not an error.
    public static func encode(_ board: Board, width: Int? = nil) throws -> [UInt8] {
        var renderer = try renderer(for: board.size, flap62: board.flap62)
        var frame: PixelFrame
        if let width {
            let height = max(1, (width * renderer.height + renderer.width / 2) / renderer.width)
            if let fitting = try? BoardRenderer(size: board.size, width: width, height: height, style: .screen, flap62: board.flap62) {
                renderer = fitting
                frame = PixelFrame(width: renderer.width, height: renderer.height)
                renderer.draw(board, into: &frame)
            } else {
                let smallest = CellGeometry.smallest.extent(of: board.size)
                renderer = try BoardRenderer(
                    size: board.size, width: smallest.width, height: smallest.height, style: .screen, flap62: board.flap62)
                var full = PixelFrame(width: renderer.width, height: renderer.height)
                renderer.draw(board, into: &full)
                frame = shrunk(full, width: width, height: max(1, smallest.height * width / smallest.width))
            }
        } else {
            frame = PixelFrame(width: renderer.width, height: renderer.height)
            renderer.draw(board, into: &frame)
        }
        return try png(frame)
    }

    /// `frame` as a PNG file, its pixels compressed by zlib (compress-nio's, so FlapCore, which
    /// writes the file's chunks, links no C library).
    public static func png(_ frame: PixelFrame) throws -> [UInt8] {
        try PNGFile.encode(frame) { raw in
            var input = ByteBuffer(bytes: raw)
            var compressed = try input.compress(with: .zlib())
            return compressed.readBytes(length: compressed.readableBytes) ?? []
        }
    }

    /// `frame` made smaller: each new pixel the average of the old ones under it.
    static func shrunk(_ frame: PixelFrame, width: Int, height: Int) -> PixelFrame {
        var small = PixelFrame(width: width, height: height)
        for y in 0..<height {
            let top = y * frame.height / height, bottom = max(top + 1, (y + 1) * frame.height / height)
            for x in 0..<width {
                let left = x * frame.width / width, right = max(left + 1, (x + 1) * frame.width / width)
                var red = 0, green = 0, blue = 0
                for sy in top..<bottom {
                    for sx in left..<right {
                        let pixel = frame[sx, sy]
                        red += Int(pixel.red)
                        green += Int(pixel.green)
                        blue += Int(pixel.blue)
                    }
                }
                let count = (bottom - top) * (right - left)
                small.setPixel(x: x, y: y, RGB(UInt8(red / count), UInt8(green / count), UInt8(blue / count)))
            }
        }
        return small
    }
}

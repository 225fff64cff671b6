import CompressNIO
import FlapCore
import NIOCore

/// A board as a PNG picture, drawn as on a screen (10×14 glyphs at twice their size, dark flaps
/// with their split) with a margin: what `flapctl preview --png` writes and the board resource is.
public enum BoardPNG {
    public static let margin = 12

    public static func renderer(for size: BoardSize) throws -> BoardRenderer {
        let extent = CellGeometry.large(scale: 2).extent(of: size)
        return try BoardRenderer(size: size, width: extent.width + 2 * margin, height: extent.height + 2 * margin, style: .screen)
    }

    /// The picture, `width` pixels wide when given (the board drawn as large as fits, centred;
    /// the height in proportion), else at twice the glyphs' size.
    public static func encode(_ board: Board, width: Int? = nil) throws -> [UInt8] {
        var renderer = try renderer(for: board.size)
        if let width {
            let height = max(1, (width * renderer.height + renderer.width / 2) / renderer.width)
            renderer = try BoardRenderer(size: board.size, width: width, height: height, style: .screen)
        }
        var frame = PixelFrame(width: renderer.width, height: renderer.height)
        renderer.draw(board, into: &frame)
        return try PNGFile.encode(frame) { raw in
            var input = ByteBuffer(bytes: raw)
            var compressed = try input.compress(with: .zlib())
            return compressed.readBytes(length: compressed.readableBytes) ?? []
        }
    }
}

import CompressNIO
import FlapCore
import FoundationEssentials
import NIOCore

/// Pictures of a board for people without the hardware: drawn as on a screen (10×14 glyphs at
/// twice their size, dark flaps with their split), with a margin.
enum BoardPicture {
    static let margin = 12

    static func renderer(for size: BoardSize) throws -> BoardRenderer {
        let extent = CellGeometry.large(scale: 2).extent(of: size)
        return try BoardRenderer(size: size, width: extent.width + 2 * margin, height: extent.height + 2 * margin, style: .screen)
    }

    static func writePNG(_ board: Board, to path: String) throws {
        let renderer = try renderer(for: board.size)
        var frame = PixelFrame(width: renderer.width, height: renderer.height)
        renderer.draw(board, into: &frame)
        try write(try PNGFile.encode(frame) { raw in
            var input = ByteBuffer(bytes: raw)
            var compressed = try input.compress(with: .zlib())
            return compressed.readBytes(length: compressed.readableBytes) ?? []
        }, to: path)
    }

    /// GIF viewers slow anything faster than 50 frames a second down to 10; 25 is safe.
    static let gifFramesPerSecond = 25

    static func writeGIF(_ plan: FlipPlan, to path: String) throws {
        let renderer = try renderer(for: plan.size)
        let times = FlipAnimation.frameTimes(duration: plan.duration, framesPerSecond: gifFramesPerSecond)
        let frames = times.enumerated().map { k, time in
            var frame = PixelFrame(width: renderer.width, height: renderer.height)
            renderer.draw(plan, at: time, into: &frame)
            let shows = k + 1 < times.count ? Int(((times[k + 1] - time) / .milliseconds(10)).rounded()) : 300
            return (frame: frame, centiseconds: shows)
        }
        try write(GIFFile.encode(frames), to: path)
    }

    static func write(_ bytes: [UInt8], to path: String) throws {
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw InputError("cannot write \(path): \(error)")
        }
    }
}

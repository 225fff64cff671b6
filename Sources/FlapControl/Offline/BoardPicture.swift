import FlapCore
import FlapMCP
import FlapPictures
import FoundationEssentials

/// Pictures of a board for people without the hardware, as the board resource of the MCP server
/// draws it (`BoardPNG`), and its flip plans as moving pictures.
enum BoardPicture {
    static func renderer(for size: BoardSize, flap62: Flap62? = nil) throws -> BoardRenderer {
        try BoardPNG.renderer(for: size, flap62: flap62)
    }

    static func writePNG(_ board: Board, to path: String) throws {
        try write(try BoardPNG.encode(board), to: path)
    }

    /// GIF viewers slow anything faster than 50 frames a second down to 10; 25 is safe.
    static let gifFramesPerSecond = 25

    static func writeGIF(_ plan: FlipPlan, to path: String) throws {
        let renderer = try renderer(for: plan.size, flap62: plan.drum.flap62)
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

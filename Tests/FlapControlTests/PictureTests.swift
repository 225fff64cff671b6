import FlapCore
import Foundation
import TestSupport
import Testing

@testable import FlapControl

/// `flapctl preview --png/--gif`, read back by Pillow and Python's zlib.
@Suite struct PictureTests {
    @Test func thePNGIsTheFinalBoardAndTheGIFEndsOnIt() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pictures-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let png = folder.appendingPathComponent("board.png").path, gif = folder.appendingPathComponent("board.gif").path
        let arguments = ["preview", "--no-animation", "--size", "2x6", "--shortest", "--from", "HELLO", "--png", png, "--gif", gif, "{63}BYE\nWORLD"]
        let result = try await ProcessRunner.run(ProcessRunner.builtProduct("flapctl"), arguments)
        #expect(result.status == 0, "\(result.stderrText)")
        let output = try await PythonPeer.run(
            try await PythonPeer.python(), [PythonPeer.peersDirectory.appendingPathComponent("picture_peer.py").path, png, gif])
        let read = try #require(try JSONSerialization.jsonObject(with: output) as? [String: Any])

        let size = BoardSize(rows: 2, columns: 6)
        let renderer = try BoardPicture.renderer(for: size)
        var expected = PixelFrame(width: renderer.width, height: renderer.height)
        renderer.draw(try Board(rows: TextLayout.encodeText("{63}BYE\nWORLD", options: LayoutOptions(size: size)).rows), into: &expected)
        let hexes = expected.pixels.map { String($0.description.dropFirst()) }
        #expect(read["chunks"] as? [String] == ["IHDR", "IDAT", "IEND"])
        #expect(read["raw_bytes"] as? Int == (renderer.width * 3 + 1) * renderer.height)
        #expect(read["png_size"] as? [Int] == [renderer.width, renderer.height])
        #expect(read["png"] as? [String] == hexes)
        #expect(read["gif_size"] as? [Int] == [renderer.width, renderer.height] && read["gif_loop"] as? Int == 0)
        #expect(read["gif_last"] as? [String] == hexes)
        #expect(read["gif_first"] as? [String] != hexes)
        let durations = try #require(read["durations"] as? [Int])
        #expect(durations.count == read["gif_frames"] as? Int && durations.count > 5)
        // 25 frames a second, the last step up to the end shorter, then the final board held.
        #expect(durations.dropLast(2).allSatisfy { $0 == 40 } && (20...40).contains(durations[durations.count - 2]), "\(durations)")
        #expect(durations.last == 3000)
    }

    @Test func aPictureThatCannotBeWrittenSaysWhere() async throws {
        let result = try await ProcessRunner.run(
            ProcessRunner.builtProduct("flapctl"), ["preview", "--no-animation", "--png", "/no/such/dir/x.png", "HI"])
        #expect(result.status != 0 && result.stderrText.contains("cannot write /no/such/dir/x.png"))
    }
}

import FlapCore
import FlapHardware
import FlapSimulated
import Foundation
import TestSupport
import Testing

/// flapd as a process drawing on a framebuffer: a file laid out as one, read back as a screen
/// would scan it out.
@Suite(.cleansUp, .timeLimit(.minutes(2))) struct LEDServiceTests {
    @Test func aFramebufferPanelShowsTheMessageDrawnAsSplitFlaps() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fb-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let format = try FramebufferFormat(width: 200, height: 80, layout: .rgb565)
        let screen = folder.appendingPathComponent("fb0").path
        FileManager.default.createFile(atPath: screen, contents: Data(count: format.size))
        let config = folder.appendingPathComponent("flapd.toml")
        try """
        [[panel]]
        id = "screen"
        driver = "framebuffer"
        device = "\(screen)"
        width = 200
        height = 80
        format = "rgb565"
        size = "2x6"
        """.write(to: config, atomically: true, encoding: .utf8)
        let flapd = try await InProcessFlapd.start(arguments: ["--config", config.path, "--no-sound"])
        teardown { await flapd.stop() }
        _ = try await flapd.api.postJSON("/v1/messages", #"{"id": "s1", "text": "HELLO\nSCREEN"}"#)
        let panel = try await ChainlinkServiceTests().panel(of: flapd) { $0["message"] as? String == "s1" && $0["moving"] as? Bool == false }
        #expect(panel["driver"] as? String == "framebuffer" && panel["drum"] as? String == "vestaboard")

        let size = BoardSize(rows: 2, columns: 6)
        let renderer = try BoardRenderer(size: size, width: 200, height: 80, style: .screen)
        var expected = PixelFrame(width: 200, height: 80)
        renderer.draw(try Board(rows: TextLayout.encodeText("HELLO\nSCREEN", options: LayoutOptions(size: size)).rows), into: &expected)
        let shown = SimulatedFramebuffer.picture(of: Array(try Data(contentsOf: URL(fileURLWithPath: screen))), format: format)
        let quantised = expected.pixels.map(format.shown)
        #expect(shown.pixels == quantised)

        // Stopped, the screen goes black.
        await flapd.stop()
        #expect(try Data(contentsOf: URL(fileURLWithPath: screen)).allSatisfy { $0 == 0 })
    }
}

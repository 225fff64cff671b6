import FlapCore
import FlapHardware
import FlapLinux
import FlapSimulated
import Foundation
import Testing

/// The framebuffer driver on a file laid out as a framebuffer, and HUB75's library missing.
@Suite struct DisplayLinuxTests {
    func file(bytes: Int) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fb-\(UUID().uuidString)").path
        FileManager.default.createFile(atPath: path, contents: Data(count: bytes))
        return path
    }

    @Test(arguments: FramebufferFormat.Layout.allCases)
    func aFileLaidOutAsAFramebufferGetsTheBoard(_ layout: FramebufferFormat.Layout) async throws {
        // A line padded past the pixels, as many drivers lay them out.
        let probe = try FramebufferFormat(width: 160, height: 90, layout: layout)
        let format = try FramebufferFormat(width: 160, height: 90, layout: layout, lineLength: probe.lineLength + 32)
        let path = try file(bytes: format.size)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let memory = try LinuxFramebuffer(path: path, configured: format)
        let display = FramebufferDisplay(memory: memory)
        let size = BoardSize(rows: 2, columns: 6)
        let renderer = try BoardRenderer(size: size, width: 160, height: 90, style: .screen)
        var frame = PixelFrame(width: 160, height: 90)
        renderer.draw(try Board(rows: TextLayout.encodeText("{63} LED\nSCREEN", options: LayoutOptions(size: size)).rows), into: &frame)
        try await display.show(frame, brightness: 1)
        let written = SimulatedFramebuffer.picture(of: Array(try Data(contentsOf: URL(fileURLWithPath: path))), format: format)
        // What the format can hold of each colour: 5-6-5 loses the low bits.
        let expected = frame.pixels.map(format.shown)
        #expect(written.pixels == expected)
        #expect(written[0, 0] == .black && written.pixels.contains(RGB(218, 41, 28)) == (layout != .rgb565))
        await display.darken()
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).allSatisfy { $0 == 0 })
    }

    @Test func framebufferMistakesAreExplained() throws {
        let format = try FramebufferFormat(width: 64, height: 32, layout: .xrgb8888)
        let small = try file(bytes: 100)
        defer { try? FileManager.default.removeItem(atPath: small) }
        #expect(throws: HardwareError.self) { _ = try LinuxFramebuffer(path: small, configured: format) }
        do { _ = try LinuxFramebuffer(path: small) } catch let error as HardwareError {
            #expect(error.problem.contains("not a framebuffer") && error.remedy?.contains("format") == true)
        }
        do { _ = try LinuxFramebuffer(path: "/dev/fb9") } catch let error as HardwareError {
            #expect(error.device == "/dev/fb9" && error.problem.contains("cannot open"))
        }
        #expect(throws: FramebufferError.self) {
            _ = try FramebufferFormat(
                width: 10, height: 10, bitsPerPixel: 8, red: .init(offset: 0, length: 3),
                green: .init(offset: 3, length: 3), blue: .init(offset: 6, length: 2))
        }
    }

    @Test func hub75WithoutItsLibrarySaysWhichLibraryAndHowToGetIt() {
        do {
            _ = try LibRGBMatrix()
            Issue.record("librgbmatrix.so.1 loaded here: this machine has it, so the missing-library path went untested")
        } catch let error as HardwareError {
            #expect(error.problem.contains("librgbmatrix.so.1 could not be loaded"))
            #expect(error.remedy?.contains("rpi-rgb-led-matrix") == true)
        } catch {
            Issue.record("unexpected \(error)")
        }
        // A library that is there but is not rpi-rgb-led-matrix.
        do { _ = try LibRGBMatrix(path: "libm.so.6") } catch let error as HardwareError {
            #expect(error.problem.contains("has no led_matrix_create_from_options_and_rt_options"))
        } catch { Issue.record("unexpected \(error)") }
    }
}

import Foundation
import TestSupport
import Testing

/// `flapctl render --device max7219` against luma.led_matrix (pip, in the test venv) given the
/// same PBM images through a capturing serial interface: the bytes must match exactly.
@Suite(.timeLimit(.minutes(3))) struct MAX7219RenderTests {
    struct Case: Sendable, CustomStringConvertible {
        var width: Int, height: Int, orientation: Int, reverse: Bool, intensity: Int, withInit: Bool, raw: Bool
        var description: String {
            "\(width)x\(height) turned \(orientation)\(reverse ? " reversed" : "") i\(intensity)\(withInit ? " +init" : "")\(raw ? " P4" : " P1")"
        }
    }

    static let cases: [Case] = [
        Case(width: 8, height: 8, orientation: 0, reverse: false, intensity: 7, withInit: true, raw: false),
        Case(width: 32, height: 8, orientation: 0, reverse: false, intensity: 3, withInit: true, raw: true),
        Case(width: 32, height: 8, orientation: 90, reverse: false, intensity: 15, withInit: false, raw: false),
        Case(width: 32, height: 8, orientation: -90, reverse: true, intensity: 0, withInit: true, raw: true),
        Case(width: 32, height: 8, orientation: 180, reverse: true, intensity: 8, withInit: false, raw: false),
        Case(width: 64, height: 8, orientation: -90, reverse: false, intensity: 7, withInit: false, raw: true),
        Case(width: 16, height: 16, orientation: 90, reverse: false, intensity: 5, withInit: true, raw: false),
        Case(width: 24, height: 16, orientation: 180, reverse: false, intensity: 1, withInit: false, raw: true)
    ]

    /// A seeded image with some structure (a diagonal, a border) and noise.
    func image(width: Int, height: Int, seed: UInt64) -> [[Bool]] {
        var state = seed
        return (0..<height).map { y in
            (0..<width).map { x in
                state = state &* 6364136223846793005 &+ 1442695040888963407
                return x == y || x == 0 || y == height - 1 || (state >> 61) == 0
            }
        }
    }

    func pbm(_ pixels: [[Bool]], raw: Bool) -> Data {
        let (w, h) = (pixels[0].count, pixels.count)
        if !raw {
            return Data(
                ("P1\n# flapctl render test\n\(w) \(h)\n" + pixels.map { $0.map { $0 ? "1" : "0" }.joined(separator: " ") }.joined(separator: "\n")
                    + "\n").utf8)
        }
        var data = Data("P4\n\(w) \(h)\n".utf8)
        for row in pixels {
            for byteStart in stride(from: 0, to: w, by: 8) {
                var byte: UInt8 = 0
                for bit in 0..<8 where byteStart + bit < w && row[byteStart + bit] { byte |= 0x80 >> UInt8(bit) }
                data.append(byte)
            }
        }
        return data
    }

    @Test(arguments: cases) func theBytesMatchLuma(_ c: Case) async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("render-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for seed in 1...3 as ClosedRange<UInt64> {
            let file = dir.appendingPathComponent("image\(seed).pbm")
            try pbm(image(width: c.width, height: c.height, seed: seed &* 977 &+ UInt64(c.width)), raw: c.raw).write(to: file)
            let out = dir.appendingPathComponent("out\(seed).bin")
            var arguments = [
                "render", "--device", "max7219", "--width", "\(c.width)", "--height", "\(c.height)",
                "--orientation=\(c.orientation)", "--intensity", "\(c.intensity)", "--bitmap", file.path, "--out", out.path
            ]
            if c.reverse { arguments.append("--reverse-blocks") }
            if c.withInit { arguments.append("--with-init") }
            let result = try await ProcessRunner.run(ProcessRunner.builtProduct("flapctl"), arguments)
            #expect(result.status == 0, "\(result.stderrText)")
            let ours = try Data(contentsOf: out)
            let luma = try await PythonPeer.runScript(
                "luma_max7219.py",
                arguments: [
                    file.path, "\(c.width)", "\(c.height)", "\(c.orientation)", c.reverse ? "1" : "0", "\(c.intensity * 16)", c.withInit ? "1" : "0"
                ], input: Data())
            #expect(ours == luma, "\(c), image \(seed): \(ours.count) bytes, luma \(luma.count)")
        }
    }

    @Test func badImagesAndSizesAreExplained() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("render-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let flapctl = ProcessRunner.builtProduct("flapctl")
        let bad = dir.appendingPathComponent("bad.pbm")
        try Data("P1\n8 8\n0000000000000000\n00000002".utf8).write(to: bad)
        let badPixel = try await ProcessRunner.run(flapctl, ["render", "--device", "max7219", "--bitmap", bad.path, "--out", "-"])
        #expect(badPixel.status != 0 && badPixel.stderrText.contains("row 3, column 8 of the image: \"2\" is not 0 or 1"))
        let small = dir.appendingPathComponent("small.pbm")
        try Data("P1\n12 8\n".utf8 + Data(repeating: UInt8(ascii: "0"), count: 96)).write(to: small)
        let notBlocks = try await ProcessRunner.run(flapctl, ["render", "--device", "max7219", "--bitmap", small.path, "--out", "-"])
        #expect(notBlocks.status != 0 && notBlocks.stderrText.contains("a whole number of 8×8 blocks; 12×8 is not"))
        let cascade = try await ProcessRunner.run(flapctl, ["render", "--device", "max7219", "--cascade", "4", "--bitmap", small.path, "--out", "-"])
        #expect(cascade.status != 0 && cascade.stderrText.contains("is 12×8; the device is 32×8"))
        let tall = dir.appendingPathComponent("tall.pbm")
        try Data("P1\n8 16\n".utf8 + Data(repeating: UInt8(ascii: "1"), count: 128)).write(to: tall)
        let reversedRows = try await ProcessRunner.run(
            flapctl, ["render", "--device", "max7219", "--reverse-blocks", "--bitmap", tall.path, "--out", "-"])
        #expect(reversedRows.status != 0 && reversedRows.stderrText.contains("reversed block order is for a single row of blocks"))
    }

    @Test func ws2812FramesCarryEveryPixelAndTheReset() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("render-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("strip.pbm")
        try Data("P1\n4 2\n1 0 0 0\n0 0 0 1\n".utf8).write(to: file)
        let result = try await ProcessRunner.run(
            ProcessRunner.builtProduct("flapctl"),
            ["render", "--device", "ws2812", "--brightness", "128", "--bitmap", file.path, "--out", "-"])
        #expect(result.status == 0, "\(result.stderrText)")
        // 8 LEDs × 3 colours × 3 SPI bytes, then 24 zero bytes of reset.
        #expect(result.stdout.count == 8 * 9 + 24)
        #expect(result.stdout.suffix(24).allSatisfy { $0 == 0 })
        // LED 0 and LED 4 (row 1 is serpentine: its last pixel is the first LED of the row) lit.
        // A dark LED is 24 zero bits: 100 100 … = 0x92 0x49 0x24 three times; 128 starts 110 100 100 ….
        let dark = Data([0x92, 0x49, 0x24, 0x92, 0x49, 0x24, 0x92, 0x49, 0x24])
        let lit = (0..<8).map { led in
            let bytes = result.stdout[(led * 9)..<(led * 9 + 9)]
            return Data(bytes) != dark && bytes.first == 0b1101_0010
        }
        #expect(lit == [true, false, false, false, true, false, false, false])
    }
}

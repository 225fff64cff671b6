import FlapHardware
import Foundation
import Testing

@testable import FlapLinux

/// The real ALSA code path, through ALSA's own `file` and `null` plugins (there is no sound card
/// here): a private configuration defines the PCM, and the written samples are read back.
@Suite struct ALSAAudioOutputTests {
    static func fileConfiguration(_ path: String) -> String {
        "pcm.track { type file slave { pcm { type null } } file \"\(path)\" format \"raw\" }"
    }

    static func temporaryFile() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("alsa-\(UUID().uuidString).raw").path
    }

    @Test func framesWrittenReachTheFilePluginExactly() async throws {
        let path = Self.temporaryFile()
        let output = try ALSAAudioOutput(device: "track", configuration: Self.fileConfiguration(path))
        #expect(output.sampleRate == 48_000 && output.channels == 1)
        let frames = (0..<4800).map { Int16(truncatingIfNeeded: $0 * 7) }
        try await output.write(Array(frames[..<1000]))
        try await output.write(Array(frames[1000...]))
        #expect(try await output.delay() == .zero)  // the plugins keep no time
        await output.close()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let read = stride(from: 0, to: bytes.count, by: 2).map { Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8) }
        #expect(read == frames)
    }

    @Test func theNullPluginTakesEverything() async throws {
        let output = try ALSAAudioOutput(device: "quiet", configuration: "pcm.quiet { type null }")
        try await output.write([Int16](repeating: 1000, count: 48_000))
        await output.close()
        await output.close()  // idempotent
    }

    @Test func aMissingDeviceIsAClearErrorNamingIt() {
        do {
            _ = try ALSAAudioOutput(device: "nosuchpcm", configuration: "pcm.other { type null }")
            Issue.record("opened a PCM that does not exist")
        } catch let error as HardwareError {
            #expect(error.device == "nosuchpcm")
            #expect(error.problem.hasPrefix("cannot open the sound device"))
        } catch {
            Issue.record("\(error)")
        }
        #expect(throws: HardwareError.self) { try ALSAAudioOutput(device: "x", configuration: "pcm.x { type") }
    }
}

import Foundation
import TestSupport
import Testing

/// The state directory is the owner's alone: the inbox (messages, sender names) as private as the
/// keys, whatever an earlier version or the umask left; key files of absurd size are refused.
@Suite(.timeLimit(.minutes(3))) struct StatePrivacyTests {
    static func mode(_ path: String) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
    }

    @Test func everyFileIsTheOwnersAloneEvenOneAnEarlierVersionLeftReadable() async throws {
        let first = try await FlapdProcess.start(arguments: ["--no-sound"])
        #expect(try await first.api.postJSON("/v1/messages", #"{"text": "PRIVATE"}"#).status == 202)
        await first.stop()
        // As 0.1.0 left it: the folder and the inbox readable by everyone.
        chmod(first.stateDirectory, 0o755)
        chmod(first.stateDirectory + "/inbox.sqlite", 0o644)
        let second = try await FlapdProcess.start(stateDirectory: first.stateDirectory, arguments: ["--no-sound"])
        #expect(try await second.api.postJSON("/v1/messages", #"{"text": "STILL PRIVATE"}"#).status == 202)
        #expect(try Self.mode(second.stateDirectory) == 0o700)
        let files = try FileManager.default.contentsOfDirectory(atPath: second.stateDirectory)
        #expect(files.contains("inbox.sqlite") && files.contains("inbox.sqlite-wal") && files.contains("viewer-key"), "\(files)")
        for name in files {
            let attributes = try FileManager.default.attributesOfItem(atPath: second.stateDirectory + "/" + name)
            let mode = (attributes[.posixPermissions] as? Int) ?? -1
            if attributes[.type] as? FileAttributeType == .typeDirectory {
                #expect(mode & 0o077 == 0, "the folder \(name) is \(String(mode, radix: 8))")
            } else if attributes[.type] as? FileAttributeType == .typeRegular {
                #expect(mode & 0o077 == 0, "\(name) is \(String(mode, radix: 8))")
            }
        }
        #expect(try Self.mode(second.stateDirectory + "/tls/ca.key") == 0o600)
        await second.stop()
    }

    @Test func aKeyFileOfAbsurdSizeIsRefusedWithWhatItShouldHold() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bigkey-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let key = directory.appendingPathComponent("viewer.key").path
        try Data(repeating: UInt8(ascii: "k"), count: 1 << 20).write(to: URL(fileURLWithPath: key))
        let config = directory.appendingPathComponent("flapd.toml").path
        try "[api]\nviewer_key_file = \"\(key)\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        let result = try await ProcessRunner.run(
            ProcessRunner.builtProduct("flapd"),
            [
                "--simulate", "--no-sound", "--config", config, "--state-dir", directory.appendingPathComponent("state").path,
                "--api-port", "0", "--https-port", "0", "--local-api-port", "0"
            ])
        #expect(result.status == 73, "EX_CANTCREAT: a file flapd needs cannot be used")
        #expect(result.stderrText.contains("viewer.key is larger than 4096 bytes; it should hold the key on one line"), "\(result.stderrText)")
    }
}

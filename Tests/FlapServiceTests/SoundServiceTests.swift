import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// flapd plays the clacks of its panel through the ALSA device it is given.
@Suite(.cleansUp, .timeLimit(.minutes(3))) struct SoundServiceTests {
    @Test func flapdPlaysItsPanelsClacksThroughALSA() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("snd-\(UUID().uuidString)").path
        let device = try ALSAFileDevice(in: dir)
        let raw = device.raw
        let environment = ProcessInfo.processInfo.environment.merging(device.environment) { $1 }
        let flapd = try ChildProcess(
            ProcessRunner.builtProduct("flapd"),
            [
                "--simulate", "--state-dir", dir + "/state", "--api-port", "0", "--https-port", "0", "--local-api-port", "0", "--api-key", "k",
                "--sound-device", "clacks"
            ],
            environment: environment)
        teardown { await flapd.stop() }
        let log = try await flapd.waitForLog("INFO ready")
        guard let range = log.range(of: "api=http://127.0.0.1:"), let port = Int(log[range.upperBound...].prefix { $0.isNumber }) else {
            Issue.record("no port in \(log)"); return
        }
        let api = HTTPClient(base: "http://127.0.0.1:\(port)", headers: ["Authorization": "Bearer k"])
        #expect(try await api.postJSON("/v1/messages", #"{"id": "s1", "text": "ZZ"}"#).status == 202)
        // The sound state while the board moves: never unavailable (the device works).
        var states: Set<String> = []
        _ = try await eventually(every: .milliseconds(20)) {
            let sound = try await api.get("/v1/status").object["sound"] as? [String: Any] ?? [:]
            states.insert(sound["state"] as? String ?? "?")
            return try await api.get("/v1/receipts/s1").object["status"] as? String == "displayed"
        }
        #expect(states.isSubset(of: ["idle", "playing"]), "\(states)")
        // The stream is released after half a second of silence; the file plugin writes on close.
        _ = try await eventually(every: .milliseconds(20)) {
            (try await api.get("/v1/status").object["sound"] as? [String: Any])?["state"] as? String == "idle"
        }
        flapd.signal(SIGTERM)
        #expect(await flapd.wait() == 0)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: raw))
        let samples = stride(from: 0, to: bytes.count - 1, by: 2).map { Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8) }
        // "ZZ": two modules of 26 flaps each, about 3 s of clacks, mostly silence between them.
        let loud = samples.filter { abs(Int($0)) > 3000 }.count
        #expect(samples.count > 48_000 / 2)
        #expect(loud > 10 && loud < samples.count / 4)
        #expect(!flapd.stderr.contains("no sound"))
    }
}

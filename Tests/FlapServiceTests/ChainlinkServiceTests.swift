import Foundation
import Testing
import TestSupport

/// flapd as a process with a Chainlink panel: the real driver on a pseudo-terminal, the
/// simulated controller on its far side, both inside flapd.
@Suite(.timeLimit(.minutes(2))) struct ChainlinkServiceTests {
    /// Polls /v1/status until `condition` holds for the first panel.
    func panel(of flapd: FlapdProcess, until condition: ([String: Any]) -> Bool) async throws -> [String: Any] {
        for _ in 0..<300 {
            let status = try await flapd.api.get("/v1/status").object
            if let panel = (status["panels"] as? [[String: Any]])?.first, condition(panel) { return panel }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw PeerError("the panel never got there")
    }

    @Test func theBoardsSizeComesFromTheControllersModuleCount() async throws {
        let flapd = try await FlapdProcess.start(arguments: ["--panel", "chainlink=simulated", "--rows", "2", "--no-sound"])
        defer { Task { await flapd.stop() } }
        let accepted = try await flapd.api.postJSON("/v1/messages", #"{"id": "m1", "text": "HELLO\nCHAIN"}"#)
        #expect(accepted.status == 202)
        let panel = try await panel(of: flapd) { $0["message"] as? String == "m1" && $0["moving"] as? Bool == false }
        #expect(panel["driver"] as? String == "chainlink")
        #expect(panel["rows"] as? Int == 2 && panel["columns"] as? Int == 6)
        #expect(panel["drum"] as? String == "chainlink52")
        #expect(panel["connected"] as? Bool == true)
        #expect((panel["faults"] as? [Any])?.isEmpty == true)
        let board = try await flapd.api.get("/v1/board").object
        #expect(String(describing: board).contains("HELLO"))
        let metrics = String(decoding: try await flapd.api.get("/metrics").body, as: UTF8.self)
        #expect(metrics.contains("flapd_panel_connected{panel=\"main\"} 1"))
    }

    @Test func aConfigurationFileNamesTheDriverAndDevice() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("chainlink-\(UUID().uuidString).toml")
        try """
        [[panel]]
        id = "hall"
        driver = "chainlink"
        device = "simulated"
        size = "1x8"
        """.write(to: file, atomically: true, encoding: .utf8)
        let flapd = try await FlapdProcess.start(arguments: ["--config", file.path, "--no-sound"])
        defer { Task { await flapd.stop() } }
        _ = try await flapd.api.postJSON("/v1/messages", #"{"id": "m2", "text": "ROOM 8"}"#)
        let panel = try await panel(of: flapd) { $0["message"] as? String == "m2" && $0["moving"] as? Bool == false }
        #expect(panel["id"] as? String == "hall")
        #expect(panel["rows"] as? Int == 1 && panel["columns"] as? Int == 8)
    }

    @Test func aMissingSerialDeviceIsNamedWithWhatToDo() throws {
        let flapd = ProcessRunner.builtProduct("flapd")
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("flapd-\(UUID().uuidString)").path
        let result = try ProcessRunner.run(flapd, ["--panel", "chainlink=/dev/no-such-controller", "--state-dir", state,
                                                   "--api-port", "0", "--local-api-port", "0", "--no-sound"])
        #expect(result.status != 0)
        #expect(result.stderrText.contains("/dev/no-such-controller: cannot open: No such file or directory (is the controller plugged in?)"))
        let bad = try ProcessRunner.run(flapd, ["--panel", "stepper=/dev/x", "--check-config"])
        #expect(bad.status != 0 && bad.stderrText.contains("--panel: unknown driver \"stepper\""))
    }
}

import Foundation
import TestSupport
import Testing

/// flapd as a process with a Chainlink panel: the real driver on a pseudo-terminal, the
/// simulated controller on its far side, both inside flapd.
@Suite(.cleansUp, .timeLimit(.minutes(2))) struct ChainlinkServiceTests {
    /// Polls /v1/status until `condition` holds for the first panel.
    func panel(of flapd: any RunningFlapd, until condition: ([String: Any]) -> Bool) async throws -> [String: Any] {
        var found: [String: Any]?
        _ = try await eventually(every: .milliseconds(100)) {
            let status = try await flapd.api.get("/v1/status").object
            found = (status["panels"] as? [[String: Any]])?.first.flatMap { condition($0) ? $0 : nil }
            return found != nil
        }
        guard let found else { throw PeerError("the panel never got there") }
        return found
    }

    @Test func theBoardsSizeComesFromTheControllersModuleCount() async throws {
        let flapd = try await InProcessFlapd.start(arguments: ["--panel", "chainlink=simulated", "--rows", "2", "--no-sound"], time: .real)
        teardown { await flapd.stop() }
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
        let flapd = try await InProcessFlapd.start(arguments: ["--config", file.path, "--no-sound"], time: .real)
        teardown { await flapd.stop() }
        _ = try await flapd.api.postJSON("/v1/messages", #"{"id": "m2", "text": "ROOM 8"}"#)
        let panel = try await panel(of: flapd) { $0["message"] as? String == "m2" && $0["moving"] as? Bool == false }
        #expect(panel["id"] as? String == "hall")
        #expect(panel["rows"] as? Int == 1 && panel["columns"] as? Int == 8)
    }

    @Test func aMissingSerialDeviceIsNamedWithWhatToDo() async throws {
        let flapd = ProcessRunner.builtProduct("flapd")
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("flapd-\(UUID().uuidString)").path
        let result = try await ProcessRunner.run(
            flapd,
            [
                "--panel", "chainlink=/dev/no-such-controller", "--state-dir", state,
                "--api-port", "0", "--https-port", "0", "--local-api-port", "0", "--no-sound"
            ])
        #expect(result.status == 69, "EX_UNAVAILABLE: started again, the controller may be plugged in by then")
        #expect(result.stderrText.contains("/dev/no-such-controller: cannot open: No such file or directory (is the controller plugged in?)"))
        let bad = try await ProcessRunner.run(flapd, ["--panel", "stepper=/dev/x", "--check-config"])
        #expect(bad.status != 0 && bad.stderrText.contains("--panel: unknown driver \"stepper\""))
    }
}

/// flapd driving simulated Chainlink Driver boards on SPI itself, and calibrating them.
@Suite(.cleansUp, .timeLimit(.minutes(2))) struct DirectDriveServiceTests {
    @Test func anSPIPanelShowsMessagesAndKeepsItsCalibration() async throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("flapd-\(UUID().uuidString)").path
        let arguments = ["--panel", "spi=simulated", "--rows", "1", "--columns", "6", "--no-sound"]
        let flapd = try await InProcessFlapd.start(stateDirectory: state, arguments: arguments, time: .real)
        _ = try await flapd.api.postJSON("/v1/messages", #"{"id": "d1", "text": "SPI OK"}"#)
        let panel = try await ChainlinkServiceTests().panel(of: flapd) { $0["message"] as? String == "d1" && $0["moving"] as? Bool == false }
        #expect(panel["driver"] as? String == "spi" && panel["columns"] as? Int == 6)
        let board = try await flapd.api.get("/v1/board").object
        #expect(String(describing: board).contains("SPI OK"))

        let flapctl = ProcessRunner.builtProduct("flapctl")
        let connection = ["--url", "http://127.0.0.1:\(flapd.apiPort)", "--api-key", flapd.apiKey]
        let nudged = try await ProcessRunner.run(flapctl, ["calibrate", "--row", "1", "--column", "2", "--nudge", "5", "--json"] + connection)
        #expect(nudged.status == 0, "\(nudged.stderrText)")
        let offsets = try #require(try JSONSerialization.jsonObject(with: nudged.stdout) as? [String: Any])["offsets"] as? [Int]
        #expect(offsets == [0, 20, 0, 0, 0, 0])
        let wrong = try await ProcessRunner.run(flapctl, ["calibrate", "--row", "2", "--column", "1", "--steps", "3"] + connection)
        #expect(wrong.status != 0 && wrong.stderrText.contains("row must be 1 to 1"))
        await flapd.stop()

        // Saved in the state directory: the next start steps with it.
        let again = try await InProcessFlapd.start(stateDirectory: state, arguments: arguments, time: .real)
        teardown { await again.stop() }
        let shown = try await ProcessRunner.run(
            flapctl, ["calibrate", "--json", "--url", "http://127.0.0.1:\(again.apiPort)", "--api-key", again.apiKey])
        #expect((try JSONSerialization.jsonObject(with: shown.stdout) as? [String: Any])?["offsets"] as? [Int] == [0, 20, 0, 0, 0, 0])
    }
}

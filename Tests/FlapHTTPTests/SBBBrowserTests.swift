import Foundation
import TestSupport
import Testing

/// An SBB wall's modules found from a phone: flapd drives a simulated wall of station modules
/// inside itself; the page's "Find its modules" asks addresses 0 to 31 with its progress on the
/// button, and names each module found by address, row and column.
@Suite(.cleansUp, .serialized, .timeLimit(.minutes(5))) struct SBBBrowserTests {
    @Test func theOwnerFindsAStationWallsModulesFromThePage() async throws {
        let file = try configurationFile(
            """
            [[panel]]
            id = "station"
            driver = "sbb"
            device = "simulated"
            size = "1x4"
            addresses = [[3, 5, 7, 9]]
            blades = " ABCDEFGHIJKLMNOPQRSTUVWXYZ**0123456789"
            blade_time_ms = 40
            """, named: "sbb")
        let flapd = try await FlapdProcess.start(arguments: ["--config", file, "--no-sound"])
        teardown { await flapd.stop() }
        let result = try await ProcessRunner.run(
            try await PythonPeer.python(),
            [PythonPeer.peersDirectory.appendingPathComponent("browser_sbb_find_check.py").path, "http://127.0.0.1:\(flapd.apiPort)", flapd.apiKey])
        #expect(result.status == 0, "\(result.stderrText.suffix(3000))")
        let seen = try #require(try JSONSerialization.jsonObject(with: Data(result.stdoutText.utf8)) as? [String: Any], "\(result.stdoutText)")
        #expect(seen["offered"] as? Bool == true && seen["progress"] as? Bool == true, "\(seen)")
        #expect(seen["found"] as? Bool == true, "\(seen)")
        #expect(
            seen["said"] as? String
                == "Found 4 modules: address 3 at row 1, column 1; address 5 at row 1, column 2; address 7 at row 1, column 3; address 9 at row 1, column 4.",
            "\(seen)")
        #expect((seen["consoleErrors"] as? [String])?.isEmpty == true, "\(seen["consoleErrors"] ?? "")")
    }
}

import Foundation
import TestSupport
import Testing

/// A wall's modules checked from a phone: flapd drives a Universal Firmware wall on a
/// pseudo-terminal (`flapctl simulate-hardware`), the second module with a dead Hall sensor, and
/// the page's "Check its modules" names that module by row and column in words.
@Suite(.cleansUp, .serialized, .timeLimit(.minutes(10))) struct ModulesBrowserTests {
    @Test func aDeadHallSensorIsNamedOnThePage() async throws {
        let hardware = try await SimulatedHardware.start(["--rs485", "1-2", "--firmware", "universal", "--dead-hall-sensor", "2", "--chainlink", "0"])
        teardown { await hardware.stop() }
        let flapd = try await hardware.flapdDrivingTheWall(size: "1x2")
        teardown { await flapd.stop() }
        let result = try await ProcessRunner.run(
            try await PythonPeer.python(),
            [PythonPeer.peersDirectory.appendingPathComponent("browser_modules_check.py").path, "http://127.0.0.1:\(flapd.apiPort)", flapd.apiKey])
        #expect(result.status == 0, "\(result.stderrText.suffix(3000))")
        let seen = try #require(try JSONSerialization.jsonObject(with: Data(result.stdoutText.utf8)) as? [String: Any], "\(result.stdoutText)")
        #expect(seen["offered"] as? Bool == true && seen["counted"] as? Bool == true, "\(seen)")
        #expect(seen["found"] as? Bool == true, "\(seen["panels"] ?? "")\n\(flapd.said.suffix(2000))")
        #expect((seen["panels"] as? String)?.contains("Row 1, column 1") == false, "the first module is well: \(seen["panels"] ?? "")")
        #expect((seen["consoleErrors"] as? [String])?.isEmpty == true, "\(seen["consoleErrors"] ?? "")")
    }
}

import Foundation
import TestSupport
import Testing

/// A wall's modules checked from a phone: flapd drives a wall on a pseudo-terminal (`flapctl
/// simulate-hardware`) of two Universal Firmware modules, the second with a dead Hall sensor,
/// and a third of firmware v7; the page's "Check its modules" names the dead sensor's module by
/// row and column in words, and says the v7 module cannot test itself; its motor tests run on
/// request, with their progress.
@Suite(.cleansUp, .serialized, .timeLimit(.minutes(10))) struct ModulesBrowserTests {
    @Test func aDeadHallSensorIsNamedOnThePage() async throws {
        let hardware = try await SimulatedHardware.start([
            "--rs485", "1-3", "--firmware", "universal", "--dead-hall-sensor", "2", "--v7-module", "3", "--chainlink", "0"
        ])
        teardown { await hardware.stop() }
        let flapd = try await hardware.flapdDrivingTheWall(size: "1x3")
        teardown { await flapd.stop() }
        let result = try await ProcessRunner.run(
            try await PythonPeer.python(),
            [PythonPeer.peersDirectory.appendingPathComponent("browser_modules_check.py").path, "http://127.0.0.1:\(flapd.apiPort)", flapd.apiKey])
        #expect(result.status == 0, "\(result.stderrText.suffix(3000))")
        let seen = try #require(try JSONSerialization.jsonObject(with: Data(result.stdoutText.utf8)) as? [String: Any], "\(result.stdoutText)")
        #expect(seen["offered"] as? Bool == true && seen["counted"] as? Bool == true, "\(seen)")
        #expect(seen["found"] as? Bool == true, "\(seen["panels"] ?? "")\n\(flapd.said.suffix(2000))")
        #expect(seen["untested"] as? Bool == true, "\(seen["panels"] ?? "")")
        #expect((seen["panels"] as? String)?.contains("Row 1, column 1") == false, "the first module is well: \(seen["panels"] ?? "")")
        #expect(seen["motorProgress"] as? Bool == true && seen["motorsDone"] as? Bool == true, "\(seen)")
        #expect((seen["consoleErrors"] as? [String])?.isEmpty == true, "\(seen["consoleErrors"] ?? "")")
    }
}

import Foundation
import TestSupport
import Testing

/// `flapctl modules check` against flapd driving a wall of three modules on a pseudo-terminal
/// (`flapctl simulate-hardware`; flapd runs its configured driver, not --simulate's twin), two
/// with Universal Firmware, the second of them with a dead Hall sensor, and the third with v7:
/// the dead sensor is named by row and column in a household's words, the first module is found
/// well, the v7 module is said to have no tests, and the exit status says something is wrong.
@Suite(.cleansUp, .timeLimit(.minutes(3))) struct ModulesCheckTests {
    @Test func aDeadHallSensorIsNamedByRowAndColumn() async throws {
        let hardware = try await SimulatedHardware.start([
            "--rs485", "1-3", "--firmware", "universal", "--dead-hall-sensor", "2", "--v7-module", "3", "--chainlink", "0"
        ])
        teardown { await hardware.stop() }
        let flapd = try await hardware.flapdDrivingTheWall(size: "1x3")
        teardown { await flapd.stop() }

        let check = try await ProcessRunner.run(
            ProcessRunner.builtProduct("flapctl"),
            ["modules", "check", "--panel", "wall", "--url", "http://127.0.0.1:\(flapd.apiPort)", "--api-key", flapd.apiKey])
        let said = check.stdoutText
        #expect(check.status == 1, "\(said)\(check.stderrText)\n\(flapd.said.suffix(2000))")
        #expect(said.contains("row 1, column 2: the magnet is not seen: check the Hall sensor's wiring"), "\(said)")
        #expect(!said.contains("row 1, column 1:"), "the first module is well: \(said)")
        #expect(
            said.contains(
                "row 1, column 3: not checked: module 3 runs firmware v7, which has no Hall sensor test (Universal Firmware's modules have)"),
            "\(said)")
        #expect(said.hasSuffix("2 modules checked: 1 with something wrong; 1 cannot test itself (firmware v7)\n"), "\(said)")
        #expect(check.stderrText.contains("checking row 1, column 2 (2 of 3)…"), "\(check.stderrText)")

        // One module's one test, as `flapctl module` sends it: what it found, then its figures.
        let one = try await ProcessRunner.run(
            ProcessRunner.builtProduct("flapctl"),
            [
                "module", "--panel", "wall", "--row", "1", "--column", "2", "hall-test", "--url", "http://127.0.0.1:\(flapd.apiPort)", "--api-key",
                flapd.apiKey
            ])
        #expect(one.status == 0, "\(one.stderrText)")
        #expect(
            one.stdoutText.hasPrefix("module 2 (row 1, column 2): sent m02T\nthe magnet is not seen") && one.stdoutText.contains("hallCode 2"),
            "\(one.stdoutText)")
    }
}

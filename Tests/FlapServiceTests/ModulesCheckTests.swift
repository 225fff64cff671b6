import Foundation
import TestSupport
import Testing

/// `flapctl modules check` against flapd driving a Universal Firmware wall of two modules on a
/// pseudo-terminal (`flapctl simulate-hardware`; flapd runs its configured driver, not
/// --simulate's twin), the second with a dead Hall sensor: that module
/// is named by row and column in a household's words, the other is found well, and the exit
/// status says something is wrong.
@Suite(.cleansUp, .timeLimit(.minutes(3))) struct ModulesCheckTests {
    @Test func aDeadHallSensorIsNamedByRowAndColumn() async throws {
        let devices = FileManager.default.temporaryDirectory.appendingPathComponent("dev-\(UUID().uuidString)").path
        let simulator = try ChildProcess(
            ProcessRunner.builtProduct("flapctl"),
            ["simulate-hardware", "--devices", devices, "--rs485", "1-2", "--firmware", "universal", "--dead-hall-sensor", "2", "--chainlink", "0"])
        teardown { await simulator.stop() }
        let wall = devices + "/serial/by-id/usb-VestaWidget_Simulated_RS-485_bus-if00-port0"
        #expect(try await eventually { simulator.stdout.contains(wall + " -> ") })
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("wall-\(UUID().uuidString).toml").path
        try "[[panel]]\nid = \"wall\"\ndriver = \"rs485\"\ndevice = \"\(wall)\"\nsize = \"1x2\"\n".write(
            toFile: config, atomically: true, encoding: .utf8)
        let flapd = try await FlapdProcess.start(arguments: ["--no-sound", "--config", config, "--devices", devices], simulate: false)
        teardown { await flapd.stop() }

        let check = try await ProcessRunner.run(
            ProcessRunner.builtProduct("flapctl"),
            ["modules", "check", "--panel", "wall", "--url", "http://127.0.0.1:\(flapd.apiPort)", "--api-key", flapd.apiKey])
        let said = check.stdoutText
        #expect(check.status == 1, "\(said)\(check.stderrText)\n\(flapd.said.suffix(2000))")
        #expect(said.contains("row 1, column 2: the magnet is not seen: check the Hall sensor's wiring"), "\(said)")
        #expect(!said.contains("row 1, column 1:"), "the first module is well: \(said)")
        #expect(said.hasSuffix("2 modules checked: 1 with something wrong\n"), "\(said)")
        #expect(check.stderrText.contains("checking row 1, column 2 (2 of 2)…"), "\(check.stderrText)")
    }
}

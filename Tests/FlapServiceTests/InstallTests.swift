import Foundation
import TestSupport
import Testing

/// scripts/install, staged into a directory: everything lands where the unit expects it.
@Suite(.timeLimit(.minutes(3))) struct InstallTests {
    @Test func installStagesBinariesUnitRulesAndConfiguration() async throws {
        let root = PythonPeer.packageRoot.path
        let dest = FileManager.default.temporaryDirectory.appendingPathComponent("install-\(UUID().uuidString)").path
        let bin = URL(fileURLWithPath: ProcessRunner.builtProduct("flapd")).deletingLastPathComponent().path
        let result = try await ProcessRunner.run("/bin/bash", ["\(root)/scripts/install", "--destdir", dest, "--bin-dir", bin])
        #expect(result.status == 0, "\(result.stderrText)")
        for file in ["usr/local/bin/flapd", "usr/local/bin/flapctl"] {
            #expect(FileManager.default.isExecutableFile(atPath: "\(dest)/\(file)"), "\(file)")
        }
        for file in [
            "etc/systemd/system/flapd.service", "etc/udev/rules.d/99-vestawidget.rules", "etc/dbus-1/system.d/vestawidget-bluez.conf",
            "etc/flapd/flapd.toml", "etc/flapd/flapd.example.toml", "usr/local/share/doc/vestawidget/README.md"
        ] {
            #expect(FileManager.default.fileExists(atPath: "\(dest)/\(file)"), "\(file)")
        }
        // The unit starts the installed binary with the installed configuration, which is valid.
        let unit = try String(contentsOfFile: "\(dest)/etc/systemd/system/flapd.service", encoding: .utf8)
        #expect(unit.contains("ExecStart=/usr/local/bin/flapd --config /etc/flapd/flapd.toml"))
        let check = try await ProcessRunner.run("\(dest)/usr/local/bin/flapd", ["--check-config", "--config", "\(dest)/etc/flapd/flapd.toml"])
        #expect(check.status == 0, "\(check.stderrText)")
        // A configuration someone wrote is never overwritten.
        try "listen = \"0.0.0.0\"\n".write(toFile: "\(dest)/etc/flapd/flapd.toml", atomically: true, encoding: .utf8)
        _ = try await ProcessRunner.run("/bin/bash", ["\(root)/scripts/install", "--destdir", dest, "--bin-dir", bin])
        #expect(try String(contentsOfFile: "\(dest)/etc/flapd/flapd.toml", encoding: .utf8) == "listen = \"0.0.0.0\"\n")
    }
}

import Foundation
import TestSupport
import Testing

/// "Use this" on a heart-rate strap heard, tapped in a phone-sized headless Chromium against
/// BlueZ as python-dbusmock plays it: flapd runs its configured drivers (not --simulate), so the
/// Bluetooth sensor the tap makes is the real driver, reading the mocked strap.
@Suite(.cleansUp, .serialized, .timeLimit(.minutes(10))) struct StrapBrowserTests {
    static let polar = "C4:7C:8D:6A:12:34"

    @Test func aStrapHeardBecomesTheKiosksWithOneTap() async throws {
        let peer = try await BlueZPeer.start()
        teardown { await peer.stop() }
        try await peer.call("AddAdapter", ["hci0", "kiosk"])
        try await peer.addStrap(Self.polar, name: "Polar H10 6A1234")
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("strap-page-\(UUID().uuidString).toml").path
        try "[[panel]]\nid = \"main\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        let flapd = try await FlapdProcess.start(
            arguments: ["--config", config, "--no-sound"], environment: ["DBUS_SYSTEM_BUS_ADDRESS": peer.address], simulate: false)
        teardown { await flapd.stop() }

        let result = try await withThrowingTaskGroup(of: Void.self) { beats in
            // A strap that is worn beats about once a second; a beat nobody subscribed to is lost.
            beats.addTask {
                while !Task.isCancelled {
                    _ = try? await peer.notify(Self.polar, [0x16, 72, 0x00, 0x04])
                    try await Task.sleep(for: .milliseconds(500))
                }
            }
            defer { beats.cancelAll() }
            return try await ProcessRunner.run(
                try await PythonPeer.python(),
                [
                    PythonPeer.peersDirectory.appendingPathComponent("browser_strap_check.py").path, "http://127.0.0.1:\(flapd.apiPort)",
                    flapd.apiKey, Self.polar
                ])
        }
        #expect(result.status == 0, "\(result.stderrText.suffix(3000))")
        let seen = try #require(try JSONSerialization.jsonObject(with: Data(result.stdoutText.utf8)) as? [String: Any], "\(result.stdoutText)")
        #expect((seen["heardSaid"] as? String)?.hasPrefix("Heard through ble") == true, "\(seen)")
        #expect(
            (seen["listed"] as? String)?.contains("ble:\(Self.polar): connected, 72 BPM") == true,
            "\(seen["listed"] ?? "")\n\(flapd.said.suffix(4000))")
        #expect(seen["useButtons"] as? Int == 1)
        #expect(seen["usedSaid"] as? String == "\(Self.polar) is this kiosk's strap now.", "\(seen["usedSaid"] ?? "")")
        let driver = seen["driver"] as? [String: Any], straps = seen["straps"] as? [String: Any]
        #expect(driver?["value"] as? String == "ble" && driver?["origin"] as? String == "page", "\(driver ?? [:])")
        #expect(straps?["value"] as? [String] == [Self.polar], "\(straps ?? [:])")
        #expect(seen["kioskReads"] as? Bool == true, "GET /v1/sensors: \(seen["sensors"] ?? "")\n\(flapd.said.suffix(3000))")
        #expect((seen["againSaid"] as? String)?.contains("this board's own heart-rate sensor") == true, "\(seen["againSaid"] ?? "")")
        #expect((seen["consoleErrors"] as? [String])?.isEmpty == true, "\(seen["consoleErrors"] ?? "")")
    }
}

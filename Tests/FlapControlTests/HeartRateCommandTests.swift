import Foundation
import TestSupport
import Testing

/// `flapctl hr`: from a running flapd, straight from a serial sensor, and from simulated straps.
@Suite(.cleansUp, .timeLimit(.minutes(3))) struct HeartRateCommandTests {
    let flapctl = ProcessRunner.builtProduct("flapctl")

    @Test func showsATableOfAFlapdsSimulatedStraps() async throws {
        let flapd = try await FlapdProcess.start()
        teardown { await flapd.stop() }
        var environment = ProcessInfo.processInfo.environment
        environment["FLAPD_URL"] = "http://127.0.0.1:\(flapd.apiPort)"
        environment["FLAPD_API_KEY"] = flapd.apiKey
        let result = try await ProcessRunner.run(flapctl, ["hr", "--seconds", "2.5"], environment: environment)
        #expect(result.status == 0, "\(result.stderrText)")
        let lines = result.stdoutText.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.contains { $0.hasSuffix("  3 straps") })
        #expect(lines.contains { $0.hasPrefix("strap  state") && $0.contains("bpm") && $0.contains("battery") })
        #expect(lines.contains { $0.hasPrefix("1      connected  ") })
        let json = try await ProcessRunner.run(flapctl, ["hr", "--seconds", "1.5", "--json"], environment: environment)
        let first = try #require(json.stdoutText.split(separator: "\n").first)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any])
        let straps = (object["sensors"] as? [[String: Any]])?.first?["straps"] as? [[String: Any]] ?? []
        #expect(straps.count == 3 && straps.allSatisfy { ($0["bpm"] as? Int).map { (40...200).contains($0) } ?? false })
    }

    @Test func readsASerialSensorItselfALineASecond() async throws {
        let peer = try ChildProcess(try await PythonPeer.python(), [PythonPeer.peersDirectory.appendingPathComponent("pulse_sensor.py").path])
        teardown { await peer.stop() }
        var path = ""
        _ = try await eventually(every: .milliseconds(10)) {
            path = peer.stdout.split(separator: "\n").first.map(String.init) ?? ""
            return !path.isEmpty
        }
        let result = try await ProcessRunner.run(flapctl, ["hr", "--serial", path, "--format", "prefix:HR:", "--seconds", "2.5"])
        #expect(result.status == 0, "\(result.stderrText)")
        let lines = result.stdoutText.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.last?.hasSuffix("  \(path)  66 bpm") == true, "\(result.stdoutText)")
        #expect(result.stderrText.contains("serial \(path): connected"))
    }

    @Test func saysWhatIsWrongWithItsOptions() async throws {
        let both = try await ProcessRunner.run(flapctl, ["hr", "--ble", "--simulate"])
        #expect(both.status != 0 && both.stderrText.contains("choose one of --ble, --ant, --serial and --simulate"))
        let number = try await ProcessRunner.run(flapctl, ["hr", "--ant", "/dev/ant0", "strap-one"])
        #expect(number.status != 0 && number.stderrText.contains("\"strap-one\" is not an ANT device number"))
        let format = try await ProcessRunner.run(flapctl, ["hr", "--serial", "/dev/ttyACM0", "--format", "xml"])
        #expect(format.status != 0 && format.stderrText.contains("\"xml\" is not a line format"))
    }
}

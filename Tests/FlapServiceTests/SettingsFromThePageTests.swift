import Foundation
import TestSupport
import Testing

/// Settings changed from the page on a real flapd: shown with where each comes from, refused in
/// flapd.toml's own words, kept in settings.toml over a flapd.toml that is never written, and
/// applied by flapd's parts starting again in the same process.
@Suite(.cleansUp, .timeLimit(.minutes(4))) struct SettingsFromThePageTests {
    static let file = """
        [sound]
        volume = 80

        [[panel]]
        driver = "simulated"
        size = "6x22"

        """

    func configuration(_ text: String = file) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("settings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("flapd.toml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func setting(_ key: String, of flapd: FlapdProcess) async throws -> [String: Any] {
        let settings = try await flapd.api.get("/v1/settings").object["settings"] as? [[String: Any]] ?? []
        return try #require(settings.first { $0["key"] as? String == key }, "no \(key) in \(settings.count) settings")
    }

    func change(_ key: String, to value: String, on flapd: FlapdProcess) async throws -> HTTPClient.Reply {
        try await flapd.api.request("PATCH", "/v1/settings", body: Data(#"{"changes": [{"key": "\#(key)", "value": \#(value)}]}"#.utf8))
    }

    func rows(of flapd: FlapdProcess) async -> Int? {
        let board = try? await flapd.api.get("/v1/board")
        return ((board?.object["panels"] as? [[String: Any]])?.first)?["rows"] as? Int
    }

    @Test func aChangeIsAppliedWithoutARestartAndKeptOverTheFile() async throws {
        let config = try configuration()
        let flapd = try await FlapdProcess.start(arguments: ["--config", config, "--no-sound"])
        let size = try await setting("panel[0].size", of: flapd)
        #expect(size["value"] as? String == "6x22" && size["origin"] as? String == "file", "\(size)")
        #expect(try await setting("sound.quiet_hours", of: flapd)["origin"] as? String == "default")
        #expect(try await flapd.api.postJSON("/v1/messages", #"{"text": "HELLO"}"#).status == 202)

        let changed = try await change("panel[0].size", to: #""3x15""#, on: flapd)
        #expect(changed.status == 200 && changed.object["applying"] as? Bool == true, "\(changed.text)")
        #expect(try await eventually { await rows(of: flapd) == 3 }, "\(flapd.said)")
        // Applied: the parts that answer started with it.
        #expect(try await eventually { await applied(flapd) }, "\(flapd.said.suffix(3000))")
        // The board keeps what it showed; the process is the same one.
        #expect(try await eventually { (try? await flapd.api.get("/v1/board").text.contains("HELLO")) == true })
        #expect(flapd.said.contains("settings changed from the page"))
        let now = try await setting("panel[0].size", of: flapd)
        #expect(now["origin"] as? String == "page" && now["fileValue"] as? String == "6x22", "\(now)")
        #expect(try String(contentsOfFile: config, encoding: .utf8) == Self.file, "flapd.toml is never written")
        let kept = try String(contentsOfFile: flapd.stateDirectory + "/settings.toml", encoding: .utf8)
        #expect(kept.contains("[[panel]]\nid = \"main\"\nsize = \"3x15\""), "\(kept)")

        // An upgrade whose flapd.toml has new defaults: the page's setting stays, the file's new value is taken.
        await flapd.stop()
        try Self.file.replacingOccurrences(of: "volume = 80", with: "volume = 70").write(toFile: config, atomically: true, encoding: .utf8)
        let upgraded = try await FlapdProcess.start(stateDirectory: flapd.stateDirectory, arguments: ["--config", config, "--no-sound"])
        #expect(await rows(of: upgraded) == 3)
        #expect(try await setting("sound.volume", of: upgraded)["value"] as? Int == 70)

        // "Use the file's value".
        #expect(try await change("panel[0].size", to: "null", on: upgraded).status == 200)
        #expect(try await eventually { await rows(of: upgraded) == 6 })
        #expect(try await setting("panel[0].size", of: upgraded)["origin"] as? String == "file")
        #expect(!(try String(contentsOfFile: upgraded.stateDirectory + "/settings.toml", encoding: .utf8).contains("[[panel]]")))
        await upgraded.stop()
    }

    @Test func aRefusalSaysWhatFlapdTomlsReaderSaysNamingTheKey() async throws {
        let wrong = try configuration(Self.file.replacingOccurrences(of: "volume = 80", with: "volume = 140"))
        let check = try await ProcessRunner.run(ProcessRunner.builtProduct("flapd"), ["--config", wrong, "--check-config"])
        let fileSays = try #require(check.stderrText.components(separatedBy: "sound.volume: ").last?.trimmingCharacters(in: .whitespacesAndNewlines))

        let flapd = try await FlapdProcess.start(arguments: ["--config", try configuration(), "--no-sound"])
        let refused = try await change("sound.volume", to: "140", on: flapd)
        #expect(refused.status == 400 && refused.error == "sound.volume: \(fileSays)", "\(refused.text) / \(check.stderrText)")
        let refusals: [(String, String, String)] = [
            ("sound.volume", #""loud""#, "sound.volume"),
            ("panel[0].driver", #""teleprinter""#, "panel[0].driver"),
            ("state_dir", #""/tmp""#, "state_dir: set only in flapd.toml"),
            ("sound..volume", "1", "column 7"),
            ("panel[0].id", #""wall""#, "change it there")
        ]
        for (key, value, says) in refusals {
            let answer = try await change(key, to: value, on: flapd)
            #expect(answer.status == 400 && answer.error.contains(says), "\(key): \(answer.text)")
        }
        #expect(!FileManager.default.fileExists(atPath: flapd.stateDirectory + "/settings.toml"), "nothing refused is kept")
        let body = try await flapd.api.request("PATCH", "/v1/settings", body: Data(repeating: UInt8(ascii: " "), count: 17 * 1024))
        #expect(body.status == 413)
        let member = try await flapd.api.postJSON("/v1/members", #"{"name": "Bob"}"#)
        let id = try #require((member.object["member"] as? [String: Any])?["id"] as? String)
        let key = try #require(try await flapd.api.post("/v1/members/\(id)/keys", json: [:]).object["key"] as? String)
        let bob = HTTPClient(base: "http://127.0.0.1:\(flapd.apiPort)", headers: ["Authorization": "Bearer \(key)"])
        #expect(try await bob.get("/v1/settings").status == 403)
        #expect(try await bob.request("PATCH", "/v1/settings", body: Data(#"{"changes": [{"key": "sound.volume", "value": 1}]}"#.utf8)).status == 403)
        await flapd.stop()
    }

    @Test func flapctlDoesWhatThePageDoes() async throws {
        let flapd = try await FlapdProcess.start(arguments: ["--config", try configuration(), "--no-sound"])
        let flapctl = ProcessRunner.builtProduct("flapctl")
        let options = ["--url", "http://127.0.0.1:\(flapd.apiPort)", "--api-key", flapd.apiKey]
        let set = try await ProcessRunner.run(flapctl, ["settings", "set", "panel[0].size", "3x15"] + options)
        #expect(set.status == 0, "\(set.stdoutText)\(set.stderrText)")
        #expect(try await eventually { await rows(of: flapd) == 3 })
        let shown = try await ProcessRunner.run(flapctl, ["settings", "show", "panel[0].s"] + options)
        #expect(shown.stdoutText.contains(#"panel[0].size = "3x15"  (page); the file's: "6x22""#), "\(shown.stdoutText)")
        #expect(shown.stdoutText.contains("panel[0].show  (default)"), "\(shown.stdoutText)")
        let refused = try await ProcessRunner.run(flapctl, ["settings", "set", "sound.volume", "140"] + options)
        #expect(refused.status != 0 && refused.stderrText.contains("sound.volume: must be 0 to 100"), "\(refused.stderrText)")
        let unset = try await ProcessRunner.run(flapctl, ["settings", "unset", "panel[0].size"] + options)
        #expect(unset.status == 0, "\(unset.stderrText)")
        #expect(try await eventually { await rows(of: flapd) == 6 })
        await flapd.stop()
    }

    @Test func aWallChosenOnThePageIsDrivenWhereItWasFoundEvenUnderSimulate() async throws {
        let hardware = try await SimulatedHardware.start(["--rs485", "1-4", "--chainlink", "0"])
        teardown { await hardware.stop() }
        let (simulator, wall) = (hardware.process, hardware.wall)
        let flapd = try await FlapdProcess.start(arguments: ["--no-sound", "--devices", hardware.devices])
        teardown { await flapd.stop() }
        let used = try await flapd.api.request(
            "PATCH", "/v1/settings",
            body: Data(
                #"{"changes": [{"key": "panel[0].driver", "value": "rs485"}, {"key": "panel[0].device", "value": "\#(wall)"}, {"key": "panel[0].size", "value": "1x4"}]}"#
                    .utf8))
        #expect(used.status == 200, "\(used.text)")
        #expect(try await eventually { await applied(flapd) }, "\(flapd.said.suffix(3000))")
        #expect(try await flapd.api.postJSON("/v1/messages", #"{"text": "WALL"}"#).status == 202)
        // What the modules on the far side of the pseudo-terminal show, said by the simulator.
        #expect(try await eventually { simulator.stdout.contains("rs485: WALL\n") }, "\(simulator.stdout)\n\(flapd.said)")
    }

    /// "Use this" on a heart-rate strap heard: the page makes a Bluetooth sensor for it (the whole
    /// entry at once, as a sensor is known by its place), then adds the next strap to its list.
    @Test func aStrapHeardBecomesTheKiosksBluetoothSensor() async throws {
        let flapd = try await FlapdProcess.start(arguments: ["--no-sound"])
        teardown { await flapd.stop() }
        let made = try await flapd.api.request(
            "PATCH", "/v1/settings",
            body: Data(#"{"changes": [{"key": "sensor[0]", "value": {"driver": "ble", "straps": ["C4:7C:8D:6A:12:34"]}}]}"#.utf8))
        #expect(made.status == 200, "\(made.text)")
        #expect(try await eventually { await applied(flapd) }, "\(flapd.said.suffix(3000))")
        #expect(try await setting("sensor[0].driver", of: flapd)["value"] as? String == "ble")
        let more = try await change("sensor[0].straps", to: #"["C4:7C:8D:6A:12:34", "Polar H10 6A1234"]"#, on: flapd)
        #expect(more.status == 200, "\(more.text)")
        #expect(try await eventually { await applied(flapd) }, "\(flapd.said.suffix(3000))")
        let straps = try await setting("sensor[0].straps", of: flapd)
        #expect(straps["value"] as? [String] == ["C4:7C:8D:6A:12:34", "Polar H10 6A1234"] && straps["origin"] as? String == "page", "\(straps)")
    }

    /// Whether flapd answers with its settings applied (not while its parts start again, when
    /// its port is briefly closed).
    func applied(_ flapd: FlapdProcess) async -> Bool {
        guard let answer = try? await flapd.api.get("/v1/settings") else { return false }
        return answer.status == 200 && answer.object["applying"] == nil
    }
}

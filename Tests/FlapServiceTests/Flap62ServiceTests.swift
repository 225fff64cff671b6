import Foundation
import TestSupport
import Testing

/// Flap 62 as each board has it: one flapd, three simulated Vestaboards (an older Flagship, a
/// Flagship from 2026 with the heart, a Note told it has the degree sign), each showing the same
/// messages as its own flaps would, in `/v1/board`, its picture and `flapctl board`.
@Suite(.cleansUp, .timeLimit(.minutes(2))) struct Flap62ServiceTests {
    static let configuration = """
        [[panel]]
        id = "older"
        show = "none"

        [[panel]]
        id = "newer"
        flap62 = "heart"
        show = "none"

        [[panel]]
        id = "note"
        model = "note"
        flap62 = "degree"
        show = "none"
        """

    /// Each panel's rows without blank ones, once every panel rests on message `id`.
    func shown(_ flapd: InProcessFlapd, after id: String) async throws -> [String: (flap62: String, text: [String])] {
        var found: [String: (flap62: String, text: [String])] = [:]
        _ = try await eventually(every: .milliseconds(100)) {
            let panels = try await flapd.api.get("/v1/board").object["panels"] as? [[String: Any]] ?? []
            guard panels.count == 3, panels.allSatisfy({ $0["message"] as? String == id && $0["moving"] as? Bool == false }) else { return false }
            for panel in panels {
                let rows = (panel["text"] as? [String] ?? []).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                found[panel["id"] as? String ?? "?"] = (panel["flap62"] as? String ?? "?", rows)
            }
            return true
        }
        return found
    }

    @Test func eachBoardShowsTemperaturesAndHeartsAsItsFlap62Has() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("flap62-\(UUID().uuidString).toml")
        try Self.configuration.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let flapd = try await InProcessFlapd.start(arguments: ["--config", file.path, "--no-sound"])
        teardown { await flapd.stop() }

        #expect(try await flapd.api.postJSON("/v1/messages", #"{"id": "weather", "text": "20°C"}"#).status == 202)
        let weather = try await shown(flapd, after: "weather")
        #expect(weather["older"]?.flap62 == "degree" && weather["older"]?.text == ["20°C"], "\(weather)")
        #expect(weather["newer"]?.flap62 == "heart" && weather["newer"]?.text == ["20C"], "a heart board never shows 20♥C: \(weather)")
        #expect(weather["note"]?.flap62 == "degree" && weather["note"]?.text == ["20°C"], "\(weather)")

        #expect(try await flapd.api.postJSON("/v1/messages", #"{"id": "love", "text": "I ♥ NY"}"#).status == 202)
        let love = try await shown(flapd, after: "love")
        #expect(love["older"]?.text == ["I r NY"], "a red tile where the board has no heart: \(love)")
        #expect(love["newer"]?.text == ["I ♥ NY"], "\(love)")
        #expect(love["note"]?.text == ["I r NY"], "\(love)")

        let flapctl = ProcessRunner.builtProduct("flapctl")
        let printed = try await ProcessRunner.run(flapctl, ["board", "--url", "http://127.0.0.1:\(flapd.apiPort)", "--api-key", flapd.apiKey])
        #expect(printed.status == 0, "\(printed.stderrText)")
        #expect(printed.stdoutText.components(separatedBy: "♥").count == 2, "only the newer board draws a heart:\n\(printed.stdoutText)")
        // Code 62 itself, asked for by number: each picture draws the flap its board has.
        #expect(try await flapd.api.postJSON("/v1/messages", #"{"id": "code", "text": "{62}"}"#).status == 202)
        let code = try await shown(flapd, after: "code")
        #expect(code["older"]?.text == ["°"] && code["newer"]?.text == ["♥"] && code["note"]?.text == ["°"], "\(code)")
        let older = try await flapd.api.get("/v1/board.svg?panel=older").text, newer = try await flapd.api.get("/v1/board.svg?panel=newer").text
        #expect(older.contains(">°</text>") && !older.contains("♥") && newer.contains(">♥</text>") && !newer.contains("°"))
        let olderPNG = try await flapd.api.get("/v1/board.png?panel=older").body, newerPNG = try await flapd.api.get("/v1/board.png?panel=newer").body
        #expect(olderPNG.count > 100 && newerPNG.count > 100 && olderPNG != newerPNG, "the same codes, drawn with each board's flap")
    }

    @Test func flap62IsForADrumThatHasIt() async throws {
        let flapd = ProcessRunner.builtProduct("flapd")
        for (toml, problem) in [
            ("[[panel]]\ndrum = \"chainlink52\"\nflap62 = \"heart\"\n", "panel[0].flap62: this panel's drum (chainlink52) has no flap 62"),
            ("[[panel]]\ndrum_string = \" AB°\"\nflap62 = \"heart\"\n", "panel[0].flap62: the drum string draws flap 62 as °, not a heart"),
            ("[[panel]]\nflap62 = \"star\"\n", "panel[0].flap62: \"star\" is not one of heart, degree")
        ] {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("flap62-\(UUID().uuidString).toml")
            try toml.write(to: file, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: file) }
            let result = try await ProcessRunner.run(flapd, ["--config", file.path, "--check-config"])
            #expect(result.status != 0 && result.stderrText.contains(problem), "\(result.stderrText)")
        }
    }
}

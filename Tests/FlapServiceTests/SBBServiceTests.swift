import FlapCore
import Foundation
import TestSupport
import Testing

@testable import FlapService

/// flapd with a wall of SBB/annax modules: the real driver on a simulated bus of modules inside
/// flapd, a message shown and read back from the modules; and the panel's settings refused with
/// what was wrong.
@Suite(.cleansUp, .timeLimit(.minutes(2))) struct SBBServiceTests {
    @Test func aWallOfStationModulesShowsAMessage() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("sbb-\(UUID().uuidString).toml")
        try """
        [[panel]]
        id = "station"
        driver = "sbb"
        device = "simulated"
        size = "1x4"
        addresses = [[29, 30, 31, 32]]
        blades = " ABCDEFGHIJKLMNOPQRSTUVWXYZ**0123456789"
        blade_time_ms = 40
        """.write(to: file, atomically: true, encoding: .utf8)
        let flapd = try await InProcessFlapd.start(arguments: ["--config", file.path, "--no-sound"], time: .real)
        teardown { await flapd.stop() }
        let accepted = try await flapd.api.postJSON("/v1/messages", #"{"id": "m1", "text": "GO 9"}"#)
        #expect(accepted.status == 202)
        var panel: [String: Any] = [:]
        _ = try await eventually(every: .milliseconds(200)) {
            let status = try await flapd.api.get("/v1/status").object
            panel = (status["panels"] as? [[String: Any]])?.first ?? [:]
            return panel["message"] as? String == "m1" && panel["moving"] as? Bool == false
        }
        #expect(panel["driver"] as? String == "sbb" && panel["drum"] as? String == "sbb" && panel["connected"] as? Bool == true, "\(panel)")
        let board = try await flapd.api.get("/v1/board").object
        #expect(((board["panels"] as? [[String: Any]])?.first?["text"] as? [String])?.first == "GO 9", "\(board)")
        // A character its blades lack is named, with what shows instead.
        let lacking = try await flapd.api.postJSON("/v1/messages", #"{"id": "m2", "text": "A+B"}"#)
        #expect(lacking.status == 202 && lacking.text.contains("the sbb drum has no + (row 1, column "), "\(lacking.text)")

        // Its modules take their own commands, declared by the driver, through flapd.
        let declared = try await flapd.api.get("/v1/panels/station/modules")
        #expect(declared.status == 200 && declared.text.contains(#""synopsis":"show BLADE""#), "\(declared.text)")
        let connection = ["--url", "http://127.0.0.1:\(flapd.apiPort)", "--api-key", flapd.apiKey, "--panel", "station"]
        let about = try await ProcessRunner.run(
            ProcessRunner.builtProduct("flapctl"), ["module", "--row", "1", "--column", "2"] + connection + ["about"])
        #expect(
            about.status == 0 && about.stdoutText.contains("module 30 (row 1, column 2): sent FF D0 1E"), "\(about.stdoutText)\(about.stderrText)")
        #expect(about.stdoutText.contains("serial 43501"), "\(about.stdoutText)")
    }

    @Test func itsSettingsAreRefusedWithWhatWasWrong() throws {
        func problems(_ keys: String) -> String {
            let text = "[[panel]]\nid = \"s\"\ndriver = \"sbb\"\n" + keys
            do {
                _ = try ConfigurationParser.parse(text, file: "flapd.toml")
                return ""
            } catch {
                return "\(error)"
            }
        }
        #expect(problems("size = \"1x2\"").contains("blades"))
        #expect(problems("size = \"1x2\"\nblades = \"AB\"").contains("blade 0 (the module's home) must be blank"))
        #expect(problems("size = \"1x2\"\nblades = \" AÉ\"").contains("blade 2 is \"É\""))
        #expect(problems("size = \"1x2\"\nblades = \" AB\"\naddresses = [[1, 256]]").contains("address 256 is not 0 to 255"))
        #expect(problems("size = \"1x2\"\nblades = \" AB\"\naddresses = [[1, 1]]").contains("address 1"))
        #expect(problems("size = \"1x2\"\nblades = \" AB\"\naddresses = [[1, 2, 3]]").contains("1 rows of addresses for a board of 1×2"))
        #expect(problems("size = \"1x2\"\nblades = \" AB\"\nblade_time_ms = 5").contains("20 to 2000"))
        #expect(problems("blades = \" AB\"").contains("size"))
        #expect(problems("size = \"1x2\"\nblades = \" AB\"\ndrum = \"vestaboard\"").contains("give blades"))
        #expect(problems("size = \"1x2\"\nblades = \" AB\"\naddresses = [[7, 8]]\nblade_time_ms = 60") == "")
    }
}

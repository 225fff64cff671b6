import FlapCore
import FlapHardware
import Foundation
import TestSupport
import Testing

@testable import FlapService

/// flapd as a process with a wall of RS-485 modules: the real driver on a pseudo-terminal, a bus
/// of simulated modules (firmware v7) on its far side, both inside flapd; and the panel's
/// settings read and refused.
@Suite(.cleansUp, .timeLimit(.minutes(2))) struct RS485ServiceTests {
    @Test func aWallOfModulesHomesThenShowsAMessage() async throws {
        let flapd = try await Self.flapd(
            wall: """
                size = "1x4"
                ids = [[4, 3, 2, 1]]
                """)
        teardown { await flapd.stop() }
        let accepted = try await flapd.api.postJSON("/v1/messages", #"{"id": "m1", "text": "HI{63}\""}"#)
        #expect(accepted.status == 202)
        var panel: [String: Any] = [:]
        _ = try await eventually(every: .milliseconds(200)) {
            let status = try await flapd.api.get("/v1/status").object
            panel = (status["panels"] as? [[String: Any]])?.first ?? [:]
            return panel["message"] as? String == "m1" && panel["moving"] as? Bool == false
        }
        #expect(panel["driver"] as? String == "rs485" && panel["drum"] as? String == "rs485")
        #expect(panel["connected"] as? Bool == true)
        let board = try await flapd.api.get("/v1/board").object
        let text = ((board["panels"] as? [[String: Any]])?.first?["text"] as? [String])?.first
        #expect(text == "HIr\"", "\(board)")
        #expect(flapd.said.contains("homing 4 modules"))
        // Its reel has no °: the board says it has no flap 62, and a message and a preview for
        // the panel say what shows instead.
        #expect((board["panels"] as? [[String: Any]])?.first?["flap62"] == nil, "\(board)")
        let warm = try await flapd.api.postJSON("/v1/messages", #"{"id": "m0", "text": "20°C", "sender": {"id": "weather"}}"#)
        let lacking = "the rs485 drum has no ° (row 1, column 3): shown as O"
        #expect(warm.status == 202 && warm.text.contains(lacking), "\(warm.text)")
        let preview = try await flapd.api.postJSON("/v1/layout", #"{"text": "20°C", "panel": "wall"}"#).object
        #expect((preview["warnings"] as? [String])?.contains(lacking) == true && preview["flap62"] == nil, "\(preview)")
        #expect((preview["text"] as? [String])?.first == "20OC", "\(preview)")
        #expect(try await flapd.api.postJSON("/v1/layout", #"{"text": "HI", "panel": "nowhere"}"#).status == 400)

        // Calibrated from flapctl, module by module, through flapd, which keeps the bus.
        let flapctl = ProcessRunner.builtProduct("flapctl")
        let connection = ["--url", "http://127.0.0.1:\(flapd.apiPort)", "--api-key", flapd.apiKey, "--panel", "wall"]
        func module(_ column: Int, _ words: String...) async throws -> ProcessRunner.Result {
            try await ProcessRunner.run(flapctl, ["module", "--row", "1", "--column", "\(column)"] + connection + words)
        }
        // What the modules take is the driver's declaration, listed by flapd and by flapctl.
        let declared = try await flapd.api.get("/v1/panels/wall/modules")
        #expect(declared.status == 200 && declared.text.contains(#""synopsis":"store FLAP STEPS""#), "\(declared.text)")
        #expect(try await flapd.api.get("/v1/panels/nowhere/modules").status == 404)
        let listed = try await ProcessRunner.run(flapctl, ["module"] + connection)
        #expect(listed.status == 0 && listed.stdoutText.contains("nudge STEPS") && listed.stdoutText.contains("auto-home ON"), "\(listed.stdoutText)")
        let wordy = try await module(2, "nudge", "12", "13")
        #expect(wordy.status != 0 && wordy.stderrText.contains("nudge takes nudge STEPS (2 given)"), "\(wordy.stderrText)")
        #expect(try await module(2, "offset", "30").status == 0)
        #expect(try await module(2, "store", "A", "70").status == 0)
        let dump = try await module(2, "dump")
        #expect(dump.status == 0 && dump.stdoutText.contains("module 3 (row 1, column 2): sent m03d"), "\(dump.stdoutText)\(dump.stderrText)")
        #expect(dump.stdoutText.contains("offset 30 steps, 4096 steps a turn") && dump.stdoutText.contains("stored: A=70"), "\(dump.stdoutText)")
        let measured = try await module(1, "measure")
        #expect(measured.status == 0 && measured.stdoutText.contains("a turn is 4096 steps"), "\(measured.stdoutText)\(measured.stderrText)")
        let renumbered = try await module(4, "id", "9")
        #expect(renumbered.status == 0 && renumbered.stdoutText.contains("write it in the panel's ids in flapd.toml"), "\(renumbered.stdoutText)")
        #expect(try await module(4, "dump").stdoutText.contains("module 9 (row 1, column 4): sent m09d"))
        // Mistakes are named, by flapctl or by flapd.
        let wrong = try await module(5, "home")
        #expect(wrong.status != 0 && wrong.stderrText.contains("row must be 1 to 1 and column 1 to 4"), "\(wrong.stderrText)")
        let unknown = try await module(1, "store", "~", "3")
        #expect(unknown.status != 0 && unknown.stderrText.contains("is not a flap of the reel"), "\(unknown.stderrText)")
        #expect(try await module(1, "spin").status != 0)
        // A number no module can mean is refused at once, and flapd goes on answering.
        let huge = try await flapd.api.postJSON(
            "/v1/panels/wall/modules", #"{"row": 1, "column": 1, "command": "nudge", "steps": 1000000000000}"#)
        #expect(huge.status == 400 && huge.text.contains("a nudge is 1 to 4095 for this module, not 1000000000000"), "\(huge.text)")
        let stored = try await flapd.api.postJSON(
            "/v1/panels/wall/modules", #"{"row": 1, "column": 1, "command": "store", "flap": "A", "steps": 99999999999}"#)
        #expect(stored.status == 400 && stored.text.contains("a stored position is 0 to 4095"), "\(stored.text)")
        #expect(try await flapd.api.get("/v1/board").status == 200)
        // Two dumps at once: both answered, each by its own module.
        async let first = flapd.api.postJSON("/v1/panels/wall/modules", #"{"row": 1, "column": 2, "command": "dump"}"#)
        async let second = flapd.api.postJSON("/v1/panels/wall/modules", #"{"row": 1, "column": 3, "command": "dump"}"#)
        let (one, two) = try await (first, second)
        #expect(one.status == 200 && one.text.contains("\"sent\":\"m03d\""), "\(one.text)")
        #expect(two.status == 200 && two.text.contains("\"sent\":\"m02d\""), "\(two.text)")
        // The board still changes as planned after all of it.
        _ = try await flapd.api.postJSON("/v1/messages", #"{"id": "m2", "text": "OK!?"}"#)
        _ = try await eventually(every: .milliseconds(200)) {
            let status = try await flapd.api.get("/v1/status").object
            let first = (status["panels"] as? [[String: Any]])?.first ?? [:]
            return first["message"] as? String == "m2" && first["moving"] as? Bool == false
        }
        let after = try await flapd.api.get("/v1/board").object
        #expect(((after["panels"] as? [[String: Any]])?.first?["text"] as? [String])?.first == "OK!?")
    }

    /// flapd driving a wall of simulated modules, its panel's settings `wall` besides.
    static func flapd(wall: String) async throws -> InProcessFlapd {
        let file = try configurationFile("[[panel]]\nid = \"wall\"\ndriver = \"rs485\"\ndevice = \"simulated\"\n" + wall, named: "rs485")
        return try await InProcessFlapd.start(arguments: ["--config", file, "--no-sound"], time: .real)
    }

    func problems(_ panel: String) -> [String] {
        do {
            _ = try ConfigurationParser.parse("[[panel]]\nid = \"wall\"\ndriver = \"rs485\"\n" + panel, file: "flapd.toml")
            return []
        } catch {
            return error.problems.map { "\($0.key): \($0.problem)" }
        }
    }

    @Test func itsSettingsAreReadAndMistakesNamed() throws {
        let configuration = try ConfigurationParser.parse(
            "[[panel]]\nid = \"wall\"\ndriver = \"rs485\"\nsize = \"2x2\"\nids = [[1, 2], [4, 3]]\nsteps_per_revolution = 2048\nfirmware = \"universal\"\n",
            file: "flapd.toml")
        let modules = try #require(configuration.panels.first?.options(RS485PanelKind.Modules.self))
        #expect(modules.ids == [[1, 2], [4, 3]] && modules.stepsPerRevolution == 2048 && modules.reel == .firmware && modules.firmware == .universal)
        #expect(problems("size = \"1x2\"\nfirmware = \"v8\"\n") == ["panel[0].firmware: \"v8\" is not one of v7, universal"])
        #expect(configuration.panels.first?.drum.count == 63)
        #expect(
            problems("ids = [[1, 2]]\n") == ["panel[0].size: an rs485 panel needs its size, such as size = \"3x15\" (its modules are not counted)"])
        #expect(problems("size = \"1x2\"\nids = [[1, 1]]\n") == ["panel[0].ids: module ID 1 is given twice"])
        #expect(problems("size = \"1x2\"\nids = [[1, 1000]]\n") == ["panel[0].ids: module ID 1000 is not 1 to 999"])
        #expect(problems("size = \"2x2\"\nids = [[1, 2, 3, 4]]\n") == ["panel[0].ids: 1 rows of IDs for a board of 2×2; give one list of 2 a row"])
        #expect(problems("size = \"1x2\"\nreel = \"AB\"\n") == ["panel[0].reel: drum rs485 must start with the blank flap (its home position)"])
        #expect(
            problems("size = \"1x2\"\nsteps_per_revolution = 10\n") == [
                "panel[0].steps_per_revolution: must be 64 to 65535 half-steps (a 28BYJ-48 takes 4096), not 10"
            ])
        #expect(problems("size = \"1x2\"\nchain = 4\n").first?.contains("chain is a setting of a hub75 panel") == true)
        #expect(
            problems("size = \"1x2\"\ndrum = \"chainlink52\"\n") == [
                "panel[0].drum: an rs485 panel's flaps are its reel's: give reel (one character a flap), not drum"
            ])
    }

    @Test func modulesWithReelsOfTheirOwnAreToldThemAndShowAMessageWithWarnings() async throws {
        let flapd = try await Self.flapd(
            wall: """
                firmware = "universal"
                size = "1x3"
                module_reels = { 2 = " ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.,'", 3 = " 0123456789f" }
                """)
        teardown { await flapd.stop() }
        // Module 2 has 40 flaps and no ?; module 3 digits and a filled flap.
        let accepted = try await flapd.api.postJSON("/v1/messages", #"{"id": "m1", "codes": [[60, 60, 71]]}"#)
        #expect(accepted.status == 202, "\(accepted.text)")
        #expect(accepted.text.contains("row 1, column 2 has no ? on its own flaps: shown as ."), "\(accepted.text)")
        let preview = try await flapd.api.postJSON("/v1/layout", #"{"text": "A?7", "panel": "wall"}"#).object
        #expect((preview["text"] as? [String])?.first == "A.7", "\(preview)")
        #expect((preview["warnings"] as? [String]) == ["row 1, column 2 has no ? on its own flaps: shown as ."], "\(preview)")
        var text: String?
        _ = try await eventually(every: .milliseconds(200)) {
            let board = try await flapd.api.get("/v1/board").object
            let panel = (board["panels"] as? [[String: Any]])?.first
            text = (panel?["text"] as? [String])?.first
            return panel?["moving"] as? Bool == false && text == "?.f"
        }
        #expect(text == "?.f")
        let status = try await flapd.api.get("/v1/status").object
        #expect(((status["panels"] as? [[String: Any]])?.first?["faults"] as? [Any])?.isEmpty == true, "\(status)")
    }

    @Test func aModuleReelIsRefusedWithWhatWasWrong() {
        #expect(
            problems("size = \"1x2\"\nmodule_reels = { 5 = \" AB\" }\n") == [
                "panel[0].module_reels.5: \"5\" is not the ID of one of this wall's modules"
            ])
        #expect(
            problems("size = \"1x2\"\nmodule_reels = { 2 = \"AB\" }\n") == [
                "panel[0].module_reels.2: drum rs485 must start with the blank flap (its home position)"
            ])
        let long = " ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!@#"
        #expect(problems("size = \"1x2\"\nmodule_reels = { 1 = \"\(long)\" }\n").first?.contains("at most 64 flaps") == true)
        #expect(problems("size = \"1x2\"\nmodule_reels = { 1 = 4 }\n").first?.hasPrefix("panel[0].module_reels.1:") == true)
    }
}

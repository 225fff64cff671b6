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
        let file = try configurationFile(
            """
            [[panel]]
            id = "station"
            driver = "sbb"
            device = "simulated"
            size = "1x4"
            addresses = [[29, 30, 31, 32]]
            blades = " ABCDEFGHIJKLMNOPQRSTUVWXYZ**0123456789"
            blade_time_ms = 40
            labels = ["", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "Bern", "Basel SBB"]
            """, named: "sbb")
        let flapd = try await InProcessFlapd.start(arguments: ["--config", file, "--no-sound"], time: .real)
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

        // Its modules found by asking each address, with how far the search has come meanwhile.
        let before = try await flapd.api.get("/v1/panels/station/modules/search").object
        #expect(before["panel"] as? String == "station" && !(before["search"] is [String: Any]), "no search yet: \(before)")
        let searching = Task { try await flapd.api.postJSON("/v1/panels/station/modules/search", #"{"first": 20, "last": 40}"#) }
        var underWay: [String: Any] = [:]
        _ = try await eventually(every: .milliseconds(50)) {
            underWay = try await flapd.api.get("/v1/panels/station/modules/search").object["search"] as? [String: Any] ?? [:]
            return underWay["done"] as? Bool == false && (underWay["asked"] as? Int ?? 0) > 0
        }
        #expect(underWay["first"] as? Int == 20 && underWay["last"] as? Int == 40)
        #expect(try await flapd.api.postJSON("/v1/panels/station/modules/search", "{}").status == 409)
        let searched = try await searching.value
        let found = (searched.object["found"] as? [[String: Any]])?.map { "\($0["address"]!)@\($0["row"]!),\($0["column"]!)" }
        #expect(searched.status == 200 && found == ["29@1,1", "30@1,2", "31@1,3", "32@1,4"], "\(searched.text)")
        #expect(searched.object["asked"] as? Int == 21 && searched.object["done"] as? Bool == true)
        #expect(try await flapd.api.postJSON("/v1/panels/station/modules/search", #"{"first": 300}"#).status == 400)
        #expect(try await flapd.api.postJSON("/v1/panels/nowhere/modules/search", "{}").status == 404)
        // Destinations by their labels, and a blade by its index.
        let blades = try await flapd.api.postJSON("/v1/panels/station/blades", #"{"blades": [["bern", "BASEL SBB", 31, null]]}"#)
        #expect(
            blades.status == 200 && blades.text.contains(#""blades":[[27,28,31,"#) && blades.text.contains(#""Bern","Basel SBB","2","#),
            "\(blades.text)")
        let unknown = try await flapd.api.postJSON("/v1/panels/station/blades", #"{"blades": [["Luzern", null, null, null]]}"#)
        #expect(
            unknown.status == 400 && (unknown.object["error"] as? String)?.hasPrefix("row 1, column 1: no blade is labelled \"Luzern\"") == true,
            "\(unknown.text)")
        #expect(try await flapd.api.postJSON("/v1/panels/station/blades", #"{"blades": [["Bern"]]}"#).status == 400)
        let find = try await ProcessRunner.run(
            ProcessRunner.builtProduct("flapctl"), ["modules", "find"] + connection + ["--first", "28", "--last", "33"])
        #expect(find.status == 0 && find.stdoutText.contains("address 30: serial 43501 (row 1, column 2)"), "\(find.stdoutText)\(find.stderrText)")
        #expect(
            find.stdoutText.contains("4 of 6 addresses answered") && find.stderrText.contains("addresses, "), "\(find.stdoutText)\(find.stderrText)")
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
        #expect(problems("size = \"1x2\"\nblades = \" AB\"\nlabels = [\"\", \"x\", \"y\", \"z\"]").contains("4 labels for 3 blades"))
        #expect(problems("size = \"1x2\"\nblades = \" AB\"\nlabels = [\"\", \"b\", \"\"]").contains("blades 1 and 2 are both labelled"))
        #expect(problems("blades = \" AB\"").contains("size"))
        #expect(problems("size = \"1x2\"\nblades = \" AB\"\ndrum = \"vestaboard\"").contains("give blades"))
        #expect(problems("size = \"1x2\"\nblades = \" AB\"\naddresses = [[7, 8]]\nblade_time_ms = 60") == "")
    }

    /// A station clock beside a destination: an hours module (24 blades) and a minutes module
    /// (60), each of its own type, named by address.
    @Test func modulesOfOtherTypesShowTheirOwnBlades() async throws {
        let hours = (0..<24).map { String(format: "%02d", $0) }, minutes = (0..<60).map { String(format: "%02d", $0) }
        func quoted(_ labels: [String]) -> String { "[" + labels.map { "\"\($0)\"" }.joined(separator: ", ") + "]" }
        let file = try configurationFile(
            """
            [[panel]]
            id = "station"
            driver = "sbb"
            device = "simulated"
            size = "1x3"
            addresses = [[4, 5, 6]]
            blades = " ABCDEFGHIJKLMNOPQRSTUVWXYZ*"
            labels = ["", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "Bern"]
            blade_time_ms = 20
            module_blades = { 5 = { blades = " \(String(repeating: "*", count: 23))", labels = \(quoted(hours)) }, 6 = { blades = " 123456789\(String(repeating: "*", count: 50))", labels = \(quoted(minutes)) } }
            """, named: "sbb")
        let flapd = try await InProcessFlapd.start(arguments: ["--config", file, "--no-sound"], time: .real)
        teardown { await flapd.stop() }
        let shown = try await flapd.api.postJSON("/v1/panels/station/blades", #"{"blades": [["Bern", "07", "45"]]}"#)
        #expect(
            shown.status == 200 && shown.text.contains(#""blades":[[27,7,45]]"#) && shown.text.contains(#""labels":[["Bern","07","45"]]"#),
            "\(shown.text)")
        // A blade past a module's own count, or a label of another module's type, is refused by its place.
        let past = try await flapd.api.postJSON("/v1/panels/station/blades", #"{"blades": [[null, 30, null]]}"#)
        #expect(past.status == 400 && past.text.contains("row 1, column 2: blade 30 is not one of the module's 0 to 23"), "\(past.text)")
        let other = try await flapd.api.postJSON("/v1/panels/station/blades", #"{"blades": [[null, null, "Bern"]]}"#)
        #expect(
            other.status == 400 && (other.object["error"] as? String)?.hasPrefix("row 1, column 3: no blade is labelled \"Bern\"") == true,
            "\(other.text)")
        // A text message: each module by its own blades, a character one lacks warned about by its place.
        let text = try await flapd.api.postJSON("/v1/messages", #"{"id": "m1", "text": "A 9"}"#)
        #expect(text.status == 202 && (text.object["warnings"] as? [String] ?? []).isEmpty, "\(text.text)")
        let lacking = try await flapd.api.postJSON("/v1/messages", #"{"id": "m2", "text": "B1C"}"#)
        #expect(lacking.status == 202, "\(lacking.text)")
        #expect(lacking.text.contains("row 1, column 2 has no 1 on its own flaps: shown as blank"), "\(lacking.text)")
        #expect(lacking.text.contains("row 1, column 3 has no C on its own flaps: shown as blank"), "\(lacking.text)")
        var panel: [String: Any] = [:]
        _ = try await eventually(every: .milliseconds(200)) {
            let status = try await flapd.api.get("/v1/status").object
            panel = (status["panels"] as? [[String: Any]])?.first ?? [:]
            return panel["message"] as? String == "m2" && panel["moving"] as? Bool == false
        }
        #expect((panel["faults"] as? [Any])?.isEmpty == true, "\(panel)")
        let board = try await flapd.api.get("/v1/board").object
        #expect(((board["panels"] as? [[String: Any]])?.first?["text"] as? [String])?.first == "B  ", "\(board)")
    }

    @Test func aModulesOwnBladesAreRefusedWithWhatWasWrong() throws {
        func problems(_ keys: String) -> String {
            do {
                _ = try ConfigurationParser.parse(
                    "[[panel]]\nid = \"s\"\ndriver = \"sbb\"\nsize = \"1x2\"\nblades = \" AB\"\n" + keys, file: "flapd.toml")
                return ""
            } catch {
                return "\(error)"
            }
        }
        #expect(
            problems("module_blades = { 7 = \" 12\" }").contains("panel[0].module_blades.7: \"7\" is not the address of one of this wall's modules"))
        #expect(problems("module_blades = { 2 = \"12\" }").contains("panel[0].module_blades.2: blade 0 (the module's home) must be blank"))
        #expect(problems("module_blades = { 2 = { labels = [\"a\"] } }").contains("panel[0].module_blades.2.blades"))
        #expect(problems("module_blades = { 2 = { blades = \" 1\", labels = [\"\", \"a\", \"b\"] } }").contains("3 labels for 2 blades"))
        #expect(problems("module_blades = { 2 = \" 12\", 1 = { blades = \" *\", labels = [\"\", \"x\"] } }") == "")
    }
}

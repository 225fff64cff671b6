import Foundation
import TestSupport
import Testing

/// What a panel shows, kept as a quick message whoever put it there: here another app, the
/// `vesta` library's LocalClient writing through the Local API.
@Suite(.cleansUp, .timeLimit(.minutes(2))) struct KeepTheBoardTests {
    @Test func aBoardWrittenThroughTheLocalAPIIsKeptCodeForCodeAndShownAgain() async throws {
        let flapd = try await FlapdProcess.start(arguments: ["--local-api-token", "enable-me"])
        teardown { await flapd.stop() }
        // A blank board has nothing to keep.
        let blank = try await flapd.api.postJSON("/v1/templates/shelf/from-board", "")
        #expect(blank.status == 409 && blank.error.contains("panel main is blank"), "\(blank.status) \(blank.text)")

        let output = try await PythonPeer.runScript("vesta_local_client.py", arguments: [flapd.localAPIBase, "enable-me"], input: Data())
        let written = try #require((try JSONSerialization.jsonObject(with: output) as? [String: Any])?["written"] as? [[Int]])
        #expect(written.joined().contains(63) && written.joined().contains(66), "colours included")
        let kept = try await flapd.api.postJSON("/v1/templates/from%20vesta/from-board", "")
        #expect(kept.status == 201, "\(kept.text)")
        let templates = try await flapd.api.get("/v1/templates").object["templates"] as? [[String: Any]] ?? []
        let fields = templates.first { $0["name"] as? String == "from vesta" }?["fields"] as? [String: Any]
        #expect(fields?["codes"] as? [[Int]] == written, "the codes exactly: \(fields ?? [:])")

        // Shown again after something else: the same codes. While the board moves to the other
        // (every module 26 flaps and more, some seconds), its board is not kept: it is on its way.
        let zs = String(repeating: "Z", count: 22), other = Array(repeating: zs, count: 6).joined(separator: "\\n")
        #expect(try await flapd.api.postJSON("/v1/messages", #"{"id": "other", "text": "\#(other)"}"#).status == 202)
        _ = try await eventually(every: .milliseconds(20)) {
            let panel = try await panel(of: flapd)
            return panel["message"] as? String == "other" && panel["moving"] as? Bool == true
        }
        let moving = try await flapd.api.postJSON("/v1/templates/halfway/from-board", "")
        #expect(moving.status == 409 && moving.error.contains("still moving"), "\(moving.text)")
        // Sent within the second the other message was made: it is still the newer (before, its
        // time was kept to the second, and the other one won).
        let sent = try await flapd.api.postJSON("/v1/templates/from%20vesta/send", "{}")
        #expect(sent.status == 202, "\(sent.text)")
        var shown: [[Int]] = []
        _ = try await eventually(every: .milliseconds(100)) {
            let panel = try await panel(of: flapd)
            shown = panel["codes"] as? [[Int]] ?? []
            return panel["moving"] as? Bool == false && shown == written
        }
        let receipt = try await flapd.api.get("/v1/receipts/\(sent.object["id"] as? String ?? "")").text
        #expect(shown == written, "\(sent.text) \(receipt)")
        // Another panel by name, and one there is not.
        let missing = try await flapd.api.postJSON("/v1/templates/x/from-board", #"{"panel": "attic"}"#)
        #expect(missing.status == 404 && missing.error.contains("the panels are main"), "\(missing.text)")
    }

    @Test func flapctlKeepsTheBoard() async throws {
        let flapd = try await FlapdProcess.start()
        teardown { await flapd.stop() }
        #expect(try await flapd.api.postJSON("/v1/messages", #"{"id": "m", "text": "{63} HI {66}"}"#).status == 202)
        _ = try await eventually(every: .milliseconds(100)) {
            let panel = try await panel(of: flapd)
            return panel["message"] as? String == "m" && panel["moving"] as? Bool == false
        }
        let connection = ["--url", "http://127.0.0.1:\(flapd.apiPort)", "--api-key", flapd.apiKey]
        let flapctl = ProcessRunner.builtProduct("flapctl")
        let saved = try await ProcessRunner.run(flapctl, ["template", "save", "hello", "--from-board"] + connection)
        #expect(saved.status == 0 && saved.stdoutText.contains("saved hello"), "\(saved.stderrText)")
        let wrong = try await ProcessRunner.run(flapctl, ["template", "save", "hello", "HI", "--from-board"] + connection)
        #expect(wrong.status != 0 && wrong.stderrText.contains("give the text, --codes or --from-board"), "\(wrong.stderrText)")
        let board = try await panel(of: flapd)["codes"] as? [[Int]]
        let templates = try await flapd.api.get("/v1/templates").object["templates"] as? [[String: Any]] ?? []
        #expect((templates.first?["fields"] as? [String: Any])?["codes"] as? [[Int]] == board)
    }

    func panel(of flapd: FlapdProcess) async throws -> [String: Any] {
        (try await flapd.api.get("/v1/board").object["panels"] as? [[String: Any]])?.first ?? [:]
    }
}

import Foundation
import TestSupport
import Testing

/// flapd driving a real Vestaboard as a panel, through its Local API: the fake board, and
/// another flapd standing in for a board.
@Suite(.cleansUp, .timeLimit(.minutes(2))) struct VestaboardPanelTests {
    /// A flapd whose one panel is the board at `url` with `key`.
    func flapd(url: String, key: String, api: String = "local", strategy: String = "queued") async throws -> InProcessFlapd {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vb-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try key.write(toFile: dir + "/key", atomically: true, encoding: .utf8)
        try """
        [[panel]]
        id = "wall"
        driver = "vestaboard"
        api = "\(api)"
        url = "\(url)"
        \(api == "cloud" ? "token_file" : "key_file") = "\(dir)/key"
        strategy = "\(strategy)"
        """.write(toFile: dir + "/flapd.toml", atomically: true, encoding: .utf8)
        return try await InProcessFlapd.start(arguments: ["--config", dir + "/flapd.toml", "--no-sound"])
    }

    func text(_ rows: [[Int]]) -> String {
        let letters = Array(" ABCDEFGHIJKLMNOPQRSTUVWXYZ1234567890")
        return rows.map { String($0.map { $0 < letters.count ? letters[$0] : "#" }) }.joined(separator: "\n")
    }

    @Test func aMessageGoesToTheBoardThroughItsLocalAPI() async throws {
        let board = try await FakeVestaboard.start()
        teardown { await board.stop() }
        let flapd = try await flapd(url: board.base, key: board.localKey)
        teardown { await flapd.stop() }
        let accepted = try await flapd.api.postJSON("/v1/messages", #"{"id": "v1", "text": "HELLO WALL"}"#)
        #expect(accepted.status == 202)
        let shown = try await eventually(every: .milliseconds(100)) { text(try await board.log().board).contains("HELLO WALL") }
        #expect(shown)
        let writes = try await board.writes()
        #expect(writes.count == 1 && writes[0].api == "local" && writes[0].status == "201")
        // A message's own transition goes to the board as the Local API takes it.
        _ = try await flapd.api.postJSON(
            "/v1/messages", #"{"id": "v1b", "text": "SWEEP", "transition": {"strategy": "column", "stepSize": 2, "stepIntervalMs": 100}}"#)
        var swept: FakeVestaboard.Request?
        _ = try await eventually(every: .milliseconds(100)) {
            swept = try await board.writes().first { $0.body.contains("\"strategy\":\"column\"") }
            return swept != nil
        }
        #expect(
            swept?.body.contains("\"step_size\":2") == true && swept?.body.contains("\"step_interval_ms\":100") == true, "\(swept?.body ?? "none")")
        // The key is in no log line.
        #expect(!flapd.said.contains(board.localKey))
    }

    @Test func aVestaboardNoteIsSizedFromItsAnswerAndShowsHeartsAsItsOwnFlap() async throws {
        let board = try await FakeVestaboard.start(model: "note")
        teardown { await board.stop() }
        let flapd = try await flapd(url: board.base, key: board.localKey)
        teardown { await flapd.stop() }
        #expect(flapd.said.contains("the board is a Note, 3×15"), "\(flapd.said)")
        // Laid out at 3×15; the hearts are flap 62, the Note's heart, whatever their colour.
        #expect(try await flapd.api.postJSON("/v1/messages", #"{"id": "n1", "text": "I ❤️ YOU 💙"}"#).status == 202)
        var rows: [[Int]] = []
        _ = try await eventually(every: .milliseconds(100)) {
            rows = try await board.log().board
            return rows.joined().contains(62)
        }
        #expect(rows.count == 3 && rows.allSatisfy { $0.count == 15 } && rows.joined().filter { $0 == 62 }.count == 2, "\(rows)")
        var panel: [String: Any] = [:]
        _ = try await eventually(every: .milliseconds(100)) {
            panel = (try await flapd.api.get("/v1/board").object["panels"] as? [[String: Any]])?.first ?? [:]
            return panel["moving"] as? Bool == false
        }
        #expect(panel["rows"] as? Int == 3 && panel["columns"] as? Int == 15)
        #expect((panel["text"] as? [String])?.joined().contains("I ♥ YOU ♥") == true, "\(panel)")
        // A Flagship-sized document is too large for it, and says so.
        let wide = try await flapd.api.postJSON("/v1/messages", #"{"codes": [[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]]}"#)
        #expect(wide.status == 400 && wide.text.contains("the board has 3"), "\(wide.text)")
    }

    @Test func oneFlapdDrivesAnotherThroughItsLocalAPI() async throws {
        let target = try await InProcessFlapd.start(arguments: ["--no-sound"])
        teardown { await target.stop() }
        let key = try String(contentsOfFile: target.stateDirectory + "/local-api-key", encoding: .utf8).trimmingCharacters(
            in: .whitespacesAndNewlines)
        let source = try await flapd(url: target.localAPIBase, key: key)
        teardown { await source.stop() }
        _ = try await source.api.postJSON("/v1/messages", #"{"id": "v2", "text": "FROM THE OTHER ONE"}"#)
        let shown = try await eventually(every: .milliseconds(100)) { try await target.api.get("/v1/board").text.contains("FROM THE OTHER ONE") }
        #expect(shown)
    }

    @Test func theRealVestaClientFindsTheFakeFaithful() async throws {
        let board = try await FakeVestaboard.start()
        teardown { await board.stop() }
        let result = try await ProcessRunner.run(
            try await PythonPeer.python(),
            [
                PythonPeer.peersDirectory.appendingPathComponent("vesta_fake_check.py").path, board.base
            ])
        #expect(result.status == 0, "\(result.stderrText)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdoutText.utf8)) as? [String: Any])
        #expect(object["enabledKey"] as? String == board.localKey)
        #expect(object["localWrite"] as? Bool == true && object["localReadBack"] as? Bool == true)
        #expect(object["cloudRead"] as? Bool == true && object["cloudWrite"] as? Bool == true)
        #expect(object["cloudTooSoonShown"] as? Bool == false, "a cloud write within 15 s is answered but not shown")
        #expect(object["readWriteSame"] as? String == "405")
        #expect(object["wrongToken"] as? Int == 401)
        #expect(object["transition"] as? String == "wave")
    }

    @Test func aRefusedWriteIsShownInStatusAndTheQueueAndCanBeRetried() async throws {
        let board = try await FakeVestaboard.start()
        teardown { await board.stop() }
        let flapd = try await flapd(url: board.base, key: board.localKey)
        teardown { await flapd.stop() }
        // After the start, where flapd asks the board its size: the write is what is refused.
        try await board.fail("401")
        _ = try await flapd.api.postJSON("/v1/messages", #"{"id": "q1", "text": "TRY AGAIN"}"#)
        var failed: [String: Any]?
        _ = try await eventually(every: .milliseconds(100)) {
            failed = (try await flapd.api.get("/v1/queue").object["deliveries"] as? [[String: Any]])?.first { $0["state"] as? String == "failed" }
            return failed != nil
        }
        let write = try #require(failed)
        #expect(write["attempts"] as? Int == 1 && (write["lastError"] as? String)?.contains("401") == true)
        let status = try await flapd.api.get("/v1/status").object
        let boards = try #require(status["boards"] as? [[String: Any]])
        #expect(boards.count == 1 && boards[0]["panel"] as? String == "wall" && boards[0]["api"] as? String == "local")
        #expect((boards[0]["lastError"] as? String)?.contains("401") == true && boards[0]["queueDepth"] as? Int == 0)
        #expect(try await flapd.api.get("/metrics").text.contains(#"flapd_vestaboard_writes_total{panel="wall",state="failed"} 1"#))

        // Retried (the key was fixed on the board's side): it lands.
        let id = try #require(write["id"] as? Int)
        #expect(try await flapd.api.request("POST", "/v1/queue/\(id)/retry").status == 200)
        #expect(try await flapd.api.request("POST", "/v1/queue/\(id)/retry").status == 409)
        #expect(try await flapd.api.request("DELETE", "/v1/queue/999").status == 404)
        let shown = try await eventually(every: .milliseconds(100)) { text(try await board.log().board).contains("TRY AGAIN") }
        #expect(shown)
    }
}

import Foundation
import TestSupport
import Testing

/// An array of Vestaboard Notes as one board: two fake Notes, each behind its own Local API, show
/// one message split between them, each its own part exactly once, while one of them fails.
@Suite(.cleansUp, .timeLimit(.minutes(2))) struct NoteArrayTests {
    /// A flapd whose one panel is `notes` (each a Local API's address and key) in `arrange`.
    func flapd(notes: [(url: String, key: String)], arrange: String = "row") async throws -> InProcessFlapd {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("notes-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        var entries: [String] = []
        for (index, note) in notes.enumerated() {
            try note.key.write(toFile: "\(dir)/note-\(index + 1)-key", atomically: true, encoding: .utf8)
            entries.append("{ url = \"\(note.url)\", key_file = \"\(dir)/note-\(index + 1)-key\" }")
        }
        try """
        [[panel]]
        id = "wall"
        driver = "vestaboard"
        notes = [\(entries.joined(separator: ", "))]
        arrange = "\(arrange)"
        """.write(toFile: dir + "/flapd.toml", atomically: true, encoding: .utf8)
        return try await InProcessFlapd.start(arguments: ["--config", dir + "/flapd.toml", "--no-sound"])
    }

    func blank(_ rows: [[Int]]) -> Bool { rows.allSatisfy { $0.allSatisfy { $0 == 0 } } }

    @Test func oneMessageIsSplitAcrossTwoNotesEachExactlyOnceThroughAFaultOnOne() async throws {
        let left = try await FakeVestaboard.start(model: "note"), right = try await FakeVestaboard.start(model: "note")
        teardown {
            await left.stop(); await right.stop()
        }
        let flapd = try await flapd(notes: [(left.base, left.localKey), (right.base, right.localKey)])
        teardown { await flapd.stop() }
        #expect(flapd.said.contains("2 Vestaboard Notes in a row, 3×30"), "\(flapd.said)")
        // The right Note is flaky: three 500s, each tried again later (2, 4 and 8 s).
        try await right.fail("500", "500", "500")
        let message = #"{"id": "wide", "text": "GOOD MORNING EVERYONE IN THE KITCHEN ♥", "align": "left", "valign": "top"}"#
        #expect(try await flapd.api.postJSON("/v1/messages", message).status == 202)

        // The left Note shows its part while the right one is still failing: one Note that is
        // down holds back only its own part.
        var leftRows: [[Int]] = []
        var heldBack = false
        _ = try await eventually(every: .milliseconds(50)) {
            leftRows = try await left.log().board
            guard !blank(leftRows) else { return false }
            heldBack = blank(try await right.log().board)
            return true
        }
        #expect(heldBack, "the right Note failed three times, 14 s of retries; the left one did not wait for it")
        let status = try await flapd.api.get("/v1/status").object["boards"] as? [[String: Any]] ?? []
        #expect(status.map { $0["note"] as? Int } == [1, 2] && status.allSatisfy { $0["panel"] as? String == "wall" }, "\(status)")

        // Then the right Note takes its part, and the message is displayed.
        var rightRows: [[Int]] = []
        _ = try await eventually(every: .milliseconds(100)) {
            rightRows = try await right.log().board
            return !blank(rightRows)
        }
        var receipt: [String: Any] = [:]
        _ = try await eventually(every: .milliseconds(100)) {
            receipt = try await flapd.api.get("/v1/receipts/wide").object
            return receipt["status"] as? String == "displayed"
        }
        #expect(receipt["status"] as? String == "displayed", "\(receipt)")
        let panel = try #require((try await flapd.api.get("/v1/board").object["panels"] as? [[String: Any]])?.first)
        let codes = try #require(panel["codes"] as? [[Int]])
        #expect(panel["rows"] as? Int == 3 && panel["columns"] as? Int == 30 && panel["flap62"] as? String == "heart")
        #expect(zip(leftRows, rightRows).map { $0 + $1 } == codes, "each Note shows its half of the board")
        #expect(codes.joined().contains(62), "the heart is flap 62 on Notes")
        // Exactly once each: one write taken by the left Note, three refused and one taken by the right.
        let leftWrites = try await left.writes(), rightWrites = try await right.writes()
        #expect(leftWrites.map(\.status) == ["201"], "\(leftWrites.map(\.status))")
        #expect(rightWrites.map(\.status) == ["500", "500", "500", "201"], "\(rightWrites.map(\.status))")
        // Arrays take no transitions: no write carried one.
        #expect(!(leftWrites + rightWrites).contains { $0.body.contains("strategy") })
        #expect(!flapd.said.contains(left.localKey))
    }

    @Test func notesStackedInAColumnAreOneTallBoard() async throws {
        let top = try await FakeVestaboard.start(model: "note"), bottom = try await FakeVestaboard.start(model: "note")
        teardown {
            await top.stop(); await bottom.stop()
        }
        let flapd = try await flapd(notes: [(top.base, top.localKey), (bottom.base, bottom.localKey)], arrange: "column")
        teardown { await flapd.stop() }
        let message = #"{"id": "tall", "text": "ONE\nTWO\nTHREE\nFOUR\nFIVE\nSIX", "align": "left"}"#
        #expect(try await flapd.api.postJSON("/v1/messages", message).status == 202)
        _ = try await eventually(every: .milliseconds(100)) {
            let top = try await top.log().board, bottom = try await bottom.log().board
            return !blank(top) && !blank(bottom)
        }
        let topRows = try await top.log().board, bottomRows = try await bottom.log().board
        #expect(topRows.map { $0[0] } == [15, 20, 20] && bottomRows.map { $0[0] } == [6, 6, 19], "O T T / F F S: \(topRows) \(bottomRows)")
    }

    @Test func throughTheCloudTheServiceSplitsTheCombinedBoard() async throws {
        let cloud = try await FakeVestaboard.start(model: "note", size: "3x30")
        teardown { await cloud.stop() }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("notes-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try cloud.token.write(toFile: dir + "/token", atomically: true, encoding: .utf8)
        try """
        [[panel]]
        driver = "vestaboard"
        api = "cloud"
        url = "\(cloud.base)"
        token_file = "\(dir)/token"
        model = "note"
        size = "3x30"
        """.write(toFile: dir + "/flapd.toml", atomically: true, encoding: .utf8)
        let flapd = try await InProcessFlapd.start(arguments: ["--config", dir + "/flapd.toml", "--no-sound"])
        teardown { await flapd.stop() }
        #expect(try await flapd.api.postJSON("/v1/messages", #"{"id": "c1", "text": "I ♥ THE CLOUD"}"#).status == 202)
        var rows: [[Int]] = []
        _ = try await eventually(every: .milliseconds(100)) {
            rows = try await cloud.log().board
            return !blank(rows)
        }
        #expect(rows.count == 3 && rows.allSatisfy { $0.count == 30 } && rows.joined().contains(62), "one write of the whole 3×30 board: \(rows)")
        #expect(try await cloud.writes().count == 1)
    }

    @Test func anArrayIsRefusedWhatItCannotBe() async throws {
        let flapd = ProcessRunner.builtProduct("flapd")
        for (toml, problem) in [
            (
                "notes = [{ url = \"http://a:7000\", key_file = \"/k\" }]\napi = \"cloud\"\n",
                "panel[0].api: the Notes of an array are each written over their own Local API"
            ),
            ("notes = [{ url = \"http://a:7000\" }]\n", "panel[0].notes[0].key_file: the Note's Local API key is needed"),
            (
                "notes = [{ url = \"a:7000\", key_file = \"/k\", colour = \"red\" }]\n",
                "panel[0].notes[0].url: \"a:7000\" is not an http:// or https:// address"
            ),
            (
                "notes = [{ url = \"http://a:7000\", key_file = \"/k\" }]\nurl = \"http://b:7000\"\n",
                "panel[0].url: each Note of an array has its own"
            ),
            (
                "notes = [{ url = \"http://a:7000\", key_file = \"/k\" }, { url = \"http://b:7000\", key_file = \"/k2\" }]\nsize = \"3x15\"\n",
                "panel[0].size: 2 Notes in a row are 3×30, not 3×15"
            ),
            ("notes = [{ url = \"http://a:7000\", key_file = \"/k\" }]\nmodel = \"flagship\"\n", "panel[0].model: an array's boards are Notes"),
            ("url = \"http://a:7000\"\nkey_file = \"/k\"\narrange = \"column\"\n", "panel[0].arrange: arrange is for an array of Notes")
        ] {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("notes-\(UUID().uuidString).toml")
            try ("[[panel]]\ndriver = \"vestaboard\"\n" + toml).write(to: file, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: file) }
            let result = try await ProcessRunner.run(flapd, ["--config", file.path, "--check-config"])
            #expect(result.status != 0 && result.stderrText.contains(problem), "\(toml): \(result.stderrText)")
        }
    }
}

import Foundation
import TestSupport
import Testing

/// A board read as a message source (`[[mirror]]`): the fake board through outages, and one
/// flapd mirroring another.
@Suite(.cleansUp, .timeLimit(.minutes(2))) struct VestaboardMirrorTests {
    func flapd(mirroring url: String, key: String, seconds: Int = 1) async throws -> InProcessFlapd {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mirror-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try key.write(toFile: dir + "/key", atomically: true, encoding: .utf8)
        try """
        [[panel]]
        driver = "simulated"
        show = "none"
        [[mirror]]
        api = "local"
        url = "\(url)"
        key_file = "\(dir)/key"
        interval_seconds = \(seconds)
        sender = "home-board"
        """.write(toFile: dir + "/flapd.toml", atomically: true, encoding: .utf8)
        return try await InProcessFlapd.start(arguments: ["--config", dir + "/flapd.toml", "--no-sound"])
    }

    func board(_ text: String) -> [[Int]] {
        let letters = Array(" ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        var rows = [[Int]](repeating: [Int](repeating: 0, count: 22), count: 6)
        for (i, character) in text.enumerated() { rows[2][i] = letters.firstIndex(of: character) ?? 0 }
        return rows
    }

    func waitFor(_ flapd: InProcessFlapd, _ text: String) async throws -> Bool {
        try await eventually(every: .milliseconds(100)) { try await flapd.api.get("/v1/board").text.contains(text) }
    }

    @Test func theBoardsMessageIsMirroredAndKeptThroughAnOutage() async throws {
        let fake = try await FakeVestaboard.start()
        teardown { await fake.stop() }
        try await fake.write(board("GOOD MORNING"))
        let flapd = try await flapd(mirroring: fake.base, key: fake.localKey)
        teardown { await flapd.stop() }
        #expect(try await waitFor(flapd, "GOOD MORNING"))
        let slots = try await flapd.api.get("/v1/slots").text
        #expect(slots.contains("home-board"))

        // The board fails for a while: said once, and its last message stays.
        try await fake.fail("500", "drop", "500", "401", "500")
        // Five failures at the mirror's backoff take some seconds; longer on a loaded machine.
        _ = try await eventually(every: .milliseconds(200)) { flapd.said.contains("the mirrored board can be read again") }
        #expect(try await flapd.api.get("/v1/board").text.contains("GOOD MORNING"))
        let log = flapd.said
        #expect(log.components(separatedBy: "the mirrored board cannot be read").count - 1 == 1, "said once")
        #expect(log.contains("the mirrored board can be read again"))
        #expect(!log.contains(fake.localKey))

        // Back: a new message comes through.
        try await fake.write(board("GOOD NIGHT"))
        #expect(try await waitFor(flapd, "GOOD NIGHT"))
    }

    @Test func oneFlapdMirrorsAnother() async throws {
        let source = try await InProcessFlapd.start(arguments: ["--no-sound"])
        teardown { await source.stop() }
        let key = try String(contentsOfFile: source.stateDirectory + "/local-api-key", encoding: .utf8).trimmingCharacters(
            in: .whitespacesAndNewlines)
        let mirror = try await flapd(mirroring: source.localAPIBase, key: key)
        teardown { await mirror.stop() }
        _ = try await source.api.postJSON("/v1/messages", #"{"id": "s1", "text": "SHARED NEWS"}"#)
        #expect(try await waitFor(source, "SHARED NEWS"))
        #expect(try await waitFor(mirror, "SHARED NEWS"))
    }
}

import Foundation
import TestSupport
import Testing

/// The Vestaboard Local API, driven by the real Python `vesta` client, unchanged.
@Suite(.cleansUp, .timeLimit(.minutes(2))) struct LocalAPITests {
    @Test func vestasLocalClientEnablesWritesAndReadsBack() async throws {
        let flapd = try await FlapdProcess.start(arguments: ["--local-api-token", "enable-me"])
        teardown { await flapd.stop() }
        let output = try await PythonPeer.runScript("vesta_local_client.py", arguments: [flapd.localAPIBase, "enable-me"], input: Data())
        let result = try #require(try JSONSerialization.jsonObject(with: output) as? [String: Any])
        let storedKey = try String(contentsOfFile: flapd.stateDirectory + "/local-api-key", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(result["wrongToken"] as? Int == 401)
        #expect(result["key"] as? String == storedKey)
        #expect(result["enabled"] as? Bool == true)
        #expect((result["before"] as? [[Int]])?.count == 6)
        #expect(result["write"] as? Bool == true)
        #expect(result["after"] as? [[Int]] == result["written"] as? [[Int]])
        #expect((result["readWrongKey"] as? [Any])?.first as? Int == 401)
        // As a Vestaboard answers: the plain text, which Home Assistant's Vestaboard integration
        // compares to tell a wrong key from a host that is not a Vestaboard.
        #expect((result["readWrongKey"] as? [Any])?[1] as? String == "Invalid API key")
        #expect(((result["readWrongKey"] as? [Any])?[2] as? String)?.hasPrefix("text/plain") == true)
        #expect((result["writeWrongKey"] as? [Any])?.first as? Int == 401)
        // The key was handed out, never logged.
        #expect(!flapd.process.stderr.contains(storedKey))
    }

    @Test func theLocalAPIKeySurvivesARestart() async throws {
        let first = try await FlapdProcess.start(arguments: ["--local-api-token", "t"])
        let key = try String(contentsOfFile: first.stateDirectory + "/local-api-key", encoding: .utf8)
        await first.stop()
        let second = try await FlapdProcess.start(stateDirectory: first.stateDirectory, arguments: ["--local-api-token", "t"])
        teardown { await second.stop() }
        let reply = try await HTTPClient(base: second.localAPIBase).request(
            "POST", "/local-api/enablement", headers: ["X-Vestaboard-Local-Api-Enablement-Token": "t"])
        #expect(reply.object["apiKey"] as? String == key.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(reply.object["message"] as? String == "Local API enabled")
    }

    @Test func writesInTheObjectFormWithATransitionAreAccepted() async throws {
        let flapd = try await FlapdProcess.start(arguments: ["--local-api-token", "t"])
        teardown { await flapd.stop() }
        let key = try String(contentsOfFile: flapd.stateDirectory + "/local-api-key", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let client = HTTPClient(base: flapd.localAPIBase, headers: ["X-Vestaboard-Local-Api-Key": key])
        let rows = Array(repeating: Array(repeating: 5, count: 22), count: 6)
        let ok = try await client.postJSON(
            "/local-api/message", #"{"characters": \#(rows), "strategy": "column", "step_size": 2, "step_interval_ms": 20}"#)
        #expect(ok.status == 201)
        let badRows = try await client.postJSON("/local-api/message", "[[1, 2, 3]]")
        #expect(badRows.status == 400)
        #expect((badRows.object["message"] as? String)?.contains("characters") == true)
        let badStrategy = try await client.postJSON("/local-api/message", #"{"characters": \#(rows), "strategy": "spiral"}"#)
        #expect(badStrategy.status == 400)
    }
}

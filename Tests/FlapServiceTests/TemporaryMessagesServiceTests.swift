import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Temporary messages through the running flapd: `flapctl send --for`, kept through a SIGKILL
/// and ended on time after it, and ended early over the API.
@Suite(.cleansUp, .timeLimit(.minutes(5))) struct TemporaryMessagesServiceTests {
    static func shownMessage(_ flapd: any RunningFlapd) async throws -> String? {
        let panels = try await flapd.api.get("/v1/board").object["panels"] as? [[String: Any]]
        guard let panel = panels?.first, panel["moving"] as? Bool == false else { return nil }
        return panel["message"] as? String
    }

    @Test func aTemporaryMessageOutlivesASIGKILLAndGivesTheBoardBackOnTime() async throws {
        let first = try await FlapdProcess.start()
        #expect(try await first.api.post("/v1/messages", json: ["id": "home", "sender": ["id": "kitchen"], "text": "WELCOME HOME"]).status == 202)
        _ = try await eventually(every: .milliseconds(100)) { try await Self.shownMessage(first) == "home" }

        let flapctl = ProcessRunner.builtProduct("flapctl")
        let connection = ["--url", "http://127.0.0.1:\(first.apiPort)", "--api-key", first.apiKey]
        let sent = try await ProcessRunner.run(flapctl, ["send", "--for", "30", "--sender", "door", "--id", "door-open", "DOOR OPEN"] + connection)
        #expect(sent.status == 0 && sent.stdoutText.hasPrefix("door-open"), "\(sent.stderrText)")
        // The board's own word for when it ends (its receipt): the test measures against flapd's
        // clock, not against how long this machine took to start flapctl or to flip. Its slot is
        // looked for only while flapd says it lasts: in one loaded run a 30-s message's slot had
        // gone by the time the test asked. Half a minute, not more: this test, waiting in real
        // time for a process, set the whole service phase's time at a minute.
        let receipt = try await first.api.get("/v1/receipts/door-open").object
        let expiresAt = try #require((receipt["expiresAt"] as? String).flatMap { try? Date($0, strategy: .iso8601) }, "\(receipt)")
        let slots = try await first.api.get("/v1/slots").object["slots"] as? [[String: Any]] ?? []
        if Date() < expiresAt - 1 {
            let door = try #require(slots.first { $0["id"] as? String == "door-open" }, "the temporary message has a slot: \(slots)")
            #expect(door["duration"] as? Int == 30)
        }
        #expect(slots.contains { $0["id"] as? String == "home" }, "the message it covers keeps its slot")
        first.process.signal(SIGKILL)
        _ = await first.process.wait()

        let second = try await FlapdProcess.start(stateDirectory: first.stateDirectory)
        teardown { await second.stop() }
        // Kept through the SIGKILL: still in its slot after the restart, if the restart came before its end.
        let keptIDs = try await Self.slotIDs(second)
        if Date() < expiresAt - 1 { #expect(keptIDs.contains("door-open"), "slots after the restart: \(keptIDs)") }
        var backAt: Date?
        _ = try await eventually(patience: .seconds(180), every: .milliseconds(100)) {
            let shown = try await Self.shownMessage(second)
            if shown == "home" { backAt = Date() }
            return backAt != nil
        }
        // Back when flapd said it would end (expiresAt is in whole seconds), not at the restart.
        let back = try #require(backAt)
        #expect(back >= expiresAt - 1, "the board went back \(expiresAt.timeIntervalSince(back)) s before the temporary message's end")
    }

    static func slotIDs(_ flapd: any RunningFlapd) async throws -> [String] {
        (try await flapd.api.get("/v1/slots").object["slots"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    }

    @Test func aTemporaryMessageIsEndedEarlyOverTheAPI() async throws {
        let flapd = try await InProcessFlapd.start()
        teardown { await flapd.stop() }
        #expect(try await flapd.api.delete("/v1/temporary").status == 404)
        #expect(try await flapd.api.post("/v1/messages", json: ["id": "home", "text": "WELCOME HOME"]).status == 202)
        let refused = try await flapd.api.post("/v1/messages", json: ["text": "DOOR OPEN", "duration": 5])
        #expect(refused.status == 400 && refused.text.contains("must be 10 to 43200 seconds"), "\(refused.text)")
        #expect(try await flapd.api.post("/v1/messages", json: ["id": "alert", "text": "DOOR OPEN", "duration": 3600]).status == 202)
        _ = try await eventually(every: .milliseconds(100)) { try await Self.shownMessage(flapd) == "alert" }
        let flapctl = ProcessRunner.builtProduct("flapctl")
        let connection = ["--url", "http://127.0.0.1:\(flapd.apiPort)", "--api-key", flapd.apiKey]
        let listed = try await ProcessRunner.run(flapctl, ["slots"] + connection)
        #expect(listed.stdoutText.contains("DOOR OPEN\tfor now, then back; until"), "\(listed.stdoutText)")
        let ended = try await ProcessRunner.run(flapctl, ["slots", "--end-temporary"] + connection)
        #expect(ended.status == 0 && ended.stdoutText == "ended the temporary message\n", "\(ended.stderrText)")
        #expect(try await flapd.api.delete("/v1/temporary").status == 404)
        let back = try await eventually(every: .milliseconds(100)) { try await Self.shownMessage(flapd) == "home" }
        #expect(back)
    }
}

import Foundation
import TestSupport
import Testing

/// A sender whose clock says 9999: its message is taken, with a warning, as arriving now, and
/// every later message, over HTTP, the Local API and MQTT, still reaches the board.
@Suite(.cleansUp, .timeLimit(.minutes(2))) struct SenderClockServiceTests {
    /// Waits (up to 20 s) until the board's text holds `text`.
    func board(_ flapd: FlapdProcess, shows text: String) async throws -> Bool {
        try await eventually(every: .milliseconds(50)) { try await flapd.api.get("/v1/board").text.contains(text) }
    }

    /// A 6×22 board with `word` on its third row, as Local API codes.
    func rows(_ word: String) -> String {
        let codes = word.unicodeScalars.map { Int($0.value) - 64 }
        let row = codes + Array(repeating: 0, count: 22 - codes.count)
        let blank = Array(repeating: 0, count: 22)
        return "[" + (0..<6).map { "[" + ($0 == 2 ? row : blank).map(String.init).joined(separator: ",") + "]" }.joined(separator: ",") + "]"
    }

    @Test func aMessageFromTheYear9999DoesNotHoldTheBoard() async throws {
        let broker = try await MosquittoBroker.start()
        teardown { await broker.stop() }
        let flapd = try await MQTTCrashSafetyTests.start(
            state: FileManager.default.temporaryDirectory.appendingPathComponent("clock-\(UUID().uuidString)").path,
            arguments: ["--no-sound", "--rate-limit", "0", "--mqtt", "mqtt://127.0.0.1:\(broker.port)", "--device-id", "clock"])
        teardown { await flapd.stop() }

        // Over HTTP: taken, with a warning, and no date past 9999 in its receipt.
        let future = try await flapd.api.postJSON(
            "/v1/messages", #"{"id": "f1", "text": "HI5", "createdAt": "9999-12-31T23:59:59Z", "sender": {"id": "future"}}"#)
        #expect(future.status == 202)
        #expect((future.object["warnings"] as? [String])?.first?.contains("more than 5 minutes ahead of flapd's clock") == true, "\(future.text)")
        let receipt = try await flapd.api.get("/v1/receipts/f1").object
        let expires = try #require(receipt["expiresAt"] as? String)
        #expect(try Date(expires, strategy: .iso8601) < Date().addingTimeInterval(49 * 3600), "\(expires)")
        #expect(try await board(flapd, shows: "HI5"))

        // The Local API's next message is shown.
        let token = try String(contentsOfFile: flapd.stateDirectory + "/local-api-enablement-token", encoding: .utf8).trimmingCharacters(
            in: .whitespacesAndNewlines)
        let local = HTTPClient(base: flapd.localAPIBase)
        let enabled = try await local.request("POST", "/local-api/enablement", headers: ["X-Vestaboard-Local-Api-Enablement-Token": token])
        let key = try #require(enabled.object["apiKey"] as? String)
        #expect(
            try await local.request("POST", "/local-api/message", body: Data(rows("LOCAL").utf8), headers: ["X-Vestaboard-Local-Api-Key": key]).status
                == 201)
        #expect(try await board(flapd, shows: "LOCAL"))

        // Over MQTT: a far-future message is answered with the warning in its receipt, and the next is shown.
        let receipts = try ChildProcess(
            "/usr/bin/stdbuf", ["-oL", "/usr/bin/mosquitto_sub", "-d", "-p", "\(broker.port)", "-t", "vestawidget/clock/receipt", "-W", "20"])
        teardown { await receipts.stop() }
        _ = try await eventually(every: .milliseconds(20)) { receipts.stdout.contains("SUBACK") }
        #expect(receipts.stdout.contains("SUBACK"))
        let publish = ["-p", "\(broker.port)", "-q", "1", "-t", "vestawidget/clock/message", "-m"]
        _ = try await ProcessRunner.run(
            "/usr/bin/mosquitto_pub", publish + [#"{"id": "f2", "text": "LATER", "createdAt": "9999-12-31T23:59:59Z", "sender": {"id": "far"}}"#])
        _ = try await ProcessRunner.run("/usr/bin/mosquitto_pub", publish + [#"{"id": "m1", "text": "BY MQTT", "sender": {"id": "broker-sender"}}"#])
        #expect(try await board(flapd, shows: "BY MQTT"))
        let warned = try await eventually(every: .milliseconds(50)) {
            receipts.stdout.split(separator: "\n").contains { $0.contains(#""id":"f2""#) && $0.contains("ahead of flapd's clock") }
        }
        #expect(warned, "\(receipts.stdout)")

        // And over HTTP again, from anyone.
        #expect(try await flapd.api.postJSON("/v1/messages", #"{"id": "h2", "text": "NOW", "sender": {"id": "someone"}}"#).status == 202)
        #expect(try await board(flapd, shows: "NOW"))
    }
}

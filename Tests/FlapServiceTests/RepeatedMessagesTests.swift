import FlapMQTT
import FlapMQTTClient
import Foundation
import TestSupport
import Testing

/// Saying the same thing again, on every path a household uses: "DINNER READY", then "OUT", then
/// "DINNER READY" from one sender shows DINNER READY again, each send with its own receipt.
@Suite(.cleansUp, .timeLimit(.minutes(3))) struct RepeatedMessagesTests {
    let flapctl = ProcessRunner.builtProduct("flapctl")

    /// Waits until the first panel rests on a board whose text holds `text`.
    static func shows(_ flapd: any RunningFlapd, _ text: String) async throws -> Bool {
        try await eventually(every: .milliseconds(100)) {
            let panel = (try await flapd.api.get("/v1/board").object["panels"] as? [[String: Any]])?.first
            return panel?["moving"] as? Bool == false && (panel?["text"] as? [String])?.joined(separator: "/").contains(text) == true
        }
    }

    @Test func theNativeAPIShowsARepeatAgainAndARetryIsTheSameMessage() async throws {
        let flapd = try await InProcessFlapd.start(arguments: ["--no-sound"])
        teardown { await flapd.stop() }
        var ids: [String] = []
        for text in ["DINNER READY", "OUT", "DINNER READY"] {
            let reply = try await flapd.api.postJSON("/v1/messages", #"{"text": "\#(text)", "sender": {"id": "mom"}}"#)
            #expect(reply.status == 202 && reply.object["duplicate"] == nil, "\(text): \(reply.status) \(reply.text)")
            ids.append(try #require(reply.object["id"] as? String))
            #expect(try await Self.shows(flapd, text), "the board never showed \(text)")
        }
        #expect(Set(ids).count == 3)
        for id in ids {
            let receipt = try await flapd.api.get("/v1/receipts/\(id)")
            #expect(receipt.status == 200 && receipt.object["status"] as? String == "displayed", "\(id): \(receipt.text)")
        }
        // A client retrying before anything newer arrived: the same message, not a second one.
        let retry = try await flapd.api.postJSON("/v1/messages", #"{"text": "DINNER READY", "sender": {"id": "mom"}}"#)
        #expect(retry.status == 200 && retry.object["duplicate"] as? Bool == true && retry.object["id"] as? String == ids[2])
    }

    @Test func theLocalAPIShowsEveryWriteAndAnswersAWrongKeyAsAVestaboardDoes() async throws {
        let flapd = try await InProcessFlapd.start(arguments: ["--no-sound", "--local-api-token", "t"])
        teardown { await flapd.stop() }
        let key = try String(contentsOfFile: flapd.stateDirectory + "/local-api-key", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let local = HTTPClient(base: flapd.localAPIBase, headers: ["X-Vestaboard-Local-Api-Key": key])
        func rows(_ code: Int) -> [[Int]] { Array(repeating: Array(repeating: code, count: 22), count: 6) }
        for code in [1, 2, 1] {
            let reply = try await local.postJSON("/local-api/message", "\(rows(code))")
            #expect(reply.status == 201)
            let shown = try await eventually(every: .milliseconds(100)) {
                try await local.get("/local-api/message").object["message"] as? [[Int]] == rows(code)
            }
            #expect(shown, "the board never showed rows of \(code)")
        }
        let stranger = HTTPClient(base: flapd.localAPIBase, headers: ["X-Vestaboard-Local-Api-Key": "wrong"])
        let refused = try await stranger.get("/local-api/message")
        #expect(refused.status == 401 && refused.text == "Invalid API key" && refused.headers["content-type"]?.hasPrefix("text/plain") == true)
    }

    @Test func flapctlSendShowsARepeatAgain() async throws {
        let flapd = try await InProcessFlapd.start(arguments: ["--no-sound"])
        teardown { await flapd.stop() }
        var ids: [String] = []
        for text in ["DINNER READY", "OUT", "DINNER READY"] {
            let sent = try await ProcessRunner.run(
                flapctl, ["send", "--sender", "kitchen", "--name", "Kitchen", "--wait", text], environment: flapd.clientEnvironment)
            #expect(sent.status == 0 && !sent.stdoutText.contains("already sent"), "\(sent.stdoutText) \(sent.stderrText)")
            let lines = sent.stdoutText.split(separator: "\n").map(String.init)
            #expect(lines.last == "displayed", "\(lines)")
            ids.append(lines.first ?? "")
        }
        #expect(Set(ids).count == 3, "\(ids)")
        #expect(try await Self.shows(flapd, "DINNER READY"))
        // Each send has its receipt, named by what it said; the slot by its sender's name.
        _ = try await flapd.api.postJSON("/v1/messages", #"{"text": "SOMEONE ELSE", "sender": {"id": "hall"}}"#)
        let receipts = try await ProcessRunner.run(flapctl, ["receipts", "--sender", "kitchen"], environment: flapd.clientEnvironment)
        let lines = receipts.stdoutText.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
        #expect(
            lines.map { $0.dropFirst().prefix(3).joined(separator: " ") } == [
                "kitchen displayed DINNER READY", "kitchen displayed OUT", "kitchen displayed DINNER READY"
            ],
            "\(receipts.stdoutText) \(receipts.stderrText)")
        let slots = try await ProcessRunner.run(flapctl, ["slots"], environment: flapd.clientEnvironment)
        #expect(slots.stdoutText.contains("Kitchen (kitchen)\tDINNER READY\tuntil "), "\(slots.stdoutText)")
    }

    @Test func mqttCommandAndHomeAssistantShowARepeatAgainAndAnEmptyTextClears() async throws {
        let broker = try await MosquittoBroker.start()
        teardown { await broker.stop() }
        let watcher = try await MQTTServiceTests.Watcher(port: broker.port, topics: ["vestawidget/#"])
        defer { watcher.stop() }
        let flapd = try await InProcessFlapd.start(arguments: ["--no-sound", "--mqtt", "mqtt://127.0.0.1:\(broker.port)", "--device-id", "wall"])
        teardown { await flapd.stop() }
        try await watcher.until("online") {
            $0.messages.contains { $0.topic == "vestawidget/wall/availability" && $0.payload == Array("online".utf8) }
        }
        for leaf in ["command", "ha/set"] {
            for text in ["DOOR OPEN", "DOOR CLOSED", "DOOR OPEN"] {
                let result = try await ProcessRunner.run(
                    "/usr/bin/mosquitto_pub", ["-p", "\(broker.port)", "-q", "1", "-t", "vestawidget/wall/\(leaf)", "-m", text])
                #expect(result.status == 0)
                #expect(try await Self.shows(flapd, text), "\(leaf): the board never showed \(text)")
            }
        }
        let accepted = watcher.json(on: "vestawidget/wall/receipt").filter { $0["status"] as? String == "accepted" }
        #expect(Set(accepted.compactMap { $0["id"] as? String }).count == 6, "\(accepted)")
        #expect(!accepted.contains { $0["duplicate"] != nil })
        // Home Assistant's text entity emptied: its slot clears, and the receipt says so.
        let result = try await ProcessRunner.run("/usr/bin/mosquitto_pub", ["-p", "\(broker.port)", "-q", "1", "-t", "vestawidget/wall/ha/set", "-n"])
        #expect(result.status == 0)
        try await watcher.until("cleared") {
            $0.json(on: "vestawidget/wall/receipt").contains { $0["status"] as? String == "cleared" && $0["sender"] as? String == "home-assistant" }
        }
        let slots = try await flapd.api.get("/v1/slots").object["slots"] as? [[String: Any]] ?? []
        #expect(slots.compactMap { $0["sender"] as? String } == ["mqtt-command"])
    }
}

/// flapctl's own retry: its first answer lost, it sends the message again with the same
/// Idempotency-Key, so flapd would answer the first answer instead of taking it twice.
@Suite(.cleansUp, .timeLimit(.minutes(3))) struct FlapctlRetryTests {
    @Test func aLostAnswerIsAskedAgainWithTheSameIdempotencyKey() async throws {
        let peer = try ChildProcess(try await PythonPeer.python(), [PythonPeer.peersDirectory.appendingPathComponent("lossy_flapd.py").path])
        teardown { await peer.stop() }
        #expect(try await eventually(every: .milliseconds(20)) { peer.stdout.contains("\n") })
        let port = try #require(peer.stdout.split(separator: "\n").first.map(String.init))
        let sent = try await ProcessRunner.run(
            ProcessRunner.builtProduct("flapctl"), ["send", "--sender", "kitchen", "DINNER READY"],
            environment: ["FLAPD_URL": "http://127.0.0.1:\(port)", "FLAPD_API_KEY": "k", "PATH": "/usr/bin:/bin"])
        #expect(sent.status == 0 && sent.stdoutText == "m-0123456789abcdef0123456789abcdef\n", "\(sent.stdoutText) \(sent.stderrText)")
        #expect(try await eventually(every: .milliseconds(20)) { peer.stdout.split(separator: "\n").count >= 2 })
        let keys = try #require(try JSONSerialization.jsonObject(with: Data(peer.stdout.split(separator: "\n")[1].utf8)) as? [String])
        #expect(keys.count == 2 && keys[0] == keys[1] && keys[0].count >= 16, "\(keys)")
    }
}

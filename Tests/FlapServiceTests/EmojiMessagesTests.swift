import FlapMQTT
import Foundation
import TestSupport
import Testing

/// What phones send, through the native API and MQTT: every emoji of the table is drawn as its
/// rendition and named in the answer or receipt; anything else stands as a blank, said so.
@Suite(.cleansUp, .timeLimit(.minutes(3))) struct EmojiMessagesTests {
    @Test func everyEmojiOfTheTableArrivesOverHTTPAndMQTTAsItsRendition() async throws {
        let broker = try await MosquittoBroker.start()
        teardown { await broker.stop() }
        let watcher = try await MQTTServiceTests.Watcher(port: broker.port, topics: ["vestawidget/phone/receipt"])
        defer { watcher.stop() }
        let flapd = try await InProcessFlapd.start(arguments: [
            "--no-sound", "--rate-limit", "0", "--mqtt", "mqtt://127.0.0.1:\(broker.port)", "--device-id", "phone"
        ])
        teardown { await flapd.stop() }
        let table = try #require(try await flapd.api.get("/v1/emoji").object["emoji"] as? [[String: Any]])
        #expect(table.count >= 40)
        for (index, entry) in table.enumerated() {
            let emoji = try #require(entry["emoji"] as? String)
            let body = try JSONSerialization.data(withJSONObject: ["text": "HI \(emoji) THERE", "sender": ["id": "phone-\(index)"]])
            let reply = try await flapd.api.request("POST", "/v1/messages", body: body, headers: ["Content-Type": "application/json"])
            let warnings = reply.object["warnings"] as? [String] ?? []
            #expect(
                reply.status == 202 && warnings.count == 1 && warnings[0].hasPrefix("line 1, position 4: ") && warnings[0].contains(" shown as "),
                "\(emoji): \(reply.status) \(reply.text)")
            #expect(!warnings.contains { $0.contains("not on the board") }, "\(emoji) is in the table, yet unsupported")
        }
        // The same over MQTT's command topic: one line, one message.
        let lines = table.compactMap { $0["emoji"] as? String }.map { "HI \($0) THERE" }.joined(separator: "\n") + "\n"
        let published = try await ProcessRunner.run(
            "/usr/bin/mosquitto_pub", ["-p", "\(broker.port)", "-q", "1", "-t", "vestawidget/phone/command", "-l"],
            input: Data(lines.utf8))
        #expect(published.status == 0, "\(published.stderrText)")
        let count = table.count
        try await watcher.until("a receipt for every emoji") { w in
            w.json(on: "vestawidget/phone/receipt").filter { $0["source"] as? String == "mqtt-command" && $0["status"] as? String == "accepted" }
                .count >= count
        }
        let receipts = watcher.json(on: "vestawidget/phone/receipt").filter {
            $0["source"] as? String == "mqtt-command" && $0["status"] as? String == "accepted"
        }
        for receipt in receipts {
            let warnings = receipt["warnings"] as? [String] ?? []
            #expect(warnings.count == 1 && warnings[0].contains(" shown as ") && !warnings[0].contains("not on the board"), "\(receipt)")
        }
        // Not in the table: a blank, named, over MQTT too.
        _ = try await ProcessRunner.run(
            "/usr/bin/mosquitto_pub", ["-p", "\(broker.port)", "-q", "1", "-t", "vestawidget/phone/command", "-m", "I 🦄 U"])
        try await watcher.until("the unicorn replaced") { w in
            w.json(on: "vestawidget/phone/receipt").contains {
                ($0["warnings"] as? [String]) == ["line 1, position 3: '🦄' is not on the board: shown as ' '"]
            }
        }
    }
}

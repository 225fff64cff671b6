import FlapMQTT
import FlapMQTTClient
import Foundation
import Synchronization
import TestSupport
import Testing

/// A stream of QoS 1 messages from several senders while the broker restarts, gracefully,
/// several times: broker persistence on, persistent sessions on both sides.
@Suite(.cleansUp, .timeLimit(.minutes(3))) struct MQTTBrokerRestartTests {
    static let senders = 4
    static let perSender = 250

    @Test func nothingIsLostAndEachSendersOrderIsKept() async throws {
        let broker = try await MosquittoBroker.start()
        teardown { await broker.stop() }
        let flapd = try await InProcessFlapd.start(arguments: [
            "--no-sound", "--rate-limit", "0", "--mqtt", "mqtt://127.0.0.1:\(broker.port)", "--device-id", "stream"
        ])
        teardown { await flapd.stop() }
        try await MQTTServiceTests.online(broker, "stream")

        let base = Date()
        let published = Counter()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for s in 0..<Self.senders {
                group.addTask {
                    var options = MQTTOptions(host: "127.0.0.1", port: broker.port, clientID: "sender-\(s)")
                    options.persistentSession = true
                    let client = try MQTTClient(options: options)
                    client.start()
                    for i in 0..<Self.perSender {
                        let created = ISO8601DateFormatter().string(from: base.addingTimeInterval(Double(i)))
                        let body = #"{"id": "s\#(s)-\#(i)", "sender": {"id": "sender\#(s)"}, "text": "\#(i)", "createdAt": "\#(created)"}"#
                        // Queued while the broker is away, sent when it is back.
                        try client.publish("vestawidget/stream/message", Array(body.utf8), qos: 1)
                        published.increment()
                        try await Task.sleep(for: .milliseconds(2))
                    }
                    // Disconnect once the broker has every message (it may still be reconnecting).
                    await client.disconnect(within: .seconds(60))
                }
            }
            group.addTask {
                for (n, threshold) in [200, 450, 700].enumerated() {
                    _ = try await eventually(every: .milliseconds(5)) { published.value >= threshold }
                    try await broker.restart()
                    // Each restart with flapd connected: wait for it to come back first.
                    _ = try await eventually(every: .milliseconds(10)) {
                        flapd.said.components(separatedBy: "connected to the MQTT broker").count - 1 >= n + 2
                    }
                }
            }
            try await group.waitForAll()
        }
        // The broker saved its persistence file (on each graceful stop) that the sessions came back from.
        #expect(FileManager.default.fileExists(atPath: broker.directory + "/mosquitto.db"))

        // Every message reaches flapd's inbox: 1 000 receipts.
        var total = 0
        _ = try await eventually(every: .milliseconds(50)) {
            let receipts = try await flapd.api.get("/v1/status").object["receipts"] as? [String: Int] ?? [:]
            total = receipts.values.reduce(0, +)
            return total >= Self.senders * Self.perSender
        }
        #expect(total == Self.senders * Self.perSender)
        // flapd lived through each restart and had come back to the same session, with what the
        // broker had queued for it meanwhile.
        let log = flapd.said
        #expect(log.components(separatedBy: "connected to the MQTT broker").count - 1 >= 4)
        #expect(log.components(separatedBy: "session=resumed").count - 1 >= 3)
        for s in 0..<Self.senders {
            for i in stride(from: 0, to: Self.perSender, by: 7) {
                #expect(try await flapd.api.get("/v1/receipts/s\(s)-\(i)").status == 200, "lost s\(s)-\(i)")
            }
        }
        // Each sender's newest message holds its slot: a late older one never took it back.
        let slots = try await flapd.api.get("/v1/slots").object["slots"] as? [[String: Any]] ?? []
        #expect(Set(slots.compactMap { $0["id"] as? String }) == Set((0..<Self.senders).map { "s\($0)-\(Self.perSender - 1)" }))
    }
}

final class Counter: Sendable {
    private let count = Mutex(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}

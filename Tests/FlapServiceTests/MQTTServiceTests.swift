import FlapMQTT
import FlapMQTTClient
import Foundation
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// flapd on a real mosquitto broker: messages in through its topics, receipts and state out.
@Suite(.cleansUp, .timeLimit(.minutes(2))) struct MQTTServiceTests {
    /// Watches topics with a client of its own and collects what arrives.
    final class Watcher: Sendable {
        let client: MQTTClient
        private let received = Mutex<[MQTTMessage]>([])
        private let task = Mutex<Task<Void, Never>?>(nil)

        init(port: Int, topics: [String]) async throws {
            let id = "watch-\(UUID().uuidString.prefix(6))"
            client = try MQTTClient(options: MQTTOptions(host: "127.0.0.1", port: port, clientID: id))
            // The watcher's own message on a topic of its own, subscribed last and published
            // after: the broker handles a connection's packets in order, so once it is back every
            // subscription is in place and every retained message of those topics has arrived.
            let marker = "\(id)/ready"
            let ready = ConnectFlag()
            let started = Task { [client, self] in
                for await event in client.events {
                    switch event {
                    case .connected(0, _):
                        for topic in topics + [marker] { try? client.subscribe(topic, qos: 1) }
                        try? client.publish(marker, Array("ready".utf8), qos: 1)
                    case .message(let m) where m.topic == marker: ready.set()
                    case .message(let m): self.received.withLock { $0.append(m) }
                    default: break
                    }
                }
            }
            task.withLock { $0 = started }
            client.start()
            // 40 s, as `until`: at the start of the suite a dozen brokers and flapd processes start
            // on two cores at once (one CI run took more than 10 s here).
            guard try await eventually(every: .milliseconds(10), { ready.isSet }) else {
                throw PeerError("the watcher's subscriptions were not in place within 40 s")
            }
        }

        func stop() { client.stop(); task.withLock { $0 }?.cancel() }

        var messages: [MQTTMessage] { received.withLock { $0 } }

        func json(on topic: String) -> [[String: Any]] {
            messages.filter { $0.topic == topic }.compactMap { try? JSONSerialization.jsonObject(with: Data($0.payload)) as? [String: Any] }
        }

        /// Waits until `condition` holds for what has arrived (up to 40 s: several flapd processes
        /// may be starting on two busy cores).
        func until(_ what: String, _ condition: @Sendable (Watcher) -> Bool) async throws {
            if try await eventually(every: .milliseconds(10), { condition(self) }) { return }
            Issue.record("timed out waiting for \(what); got \(messages.map { "\($0.topic) \(String(decoding: $0.payload, as: UTF8.self))" })")
        }
    }

    final class ConnectFlag: Sendable {
        private let value = Mutex(false)
        func set() { value.withLock { $0 = true } }
        var isSet: Bool { value.withLock { $0 } }
    }

    func publish(_ broker: MosquittoBroker, _ topic: String, _ payload: String, retain: Bool = false) async throws {
        let result = try await ProcessRunner.run(
            "/usr/bin/mosquitto_pub", ["-p", "\(broker.port)", "-q", "1", "-t", topic, "-m", payload] + (retain ? ["-r"] : []))
        #expect(result.status == 0, "\(result.stderrText)")
    }

    func flapd(_ broker: MosquittoBroker, device: String, state: String? = nil, extra: [String] = []) async throws -> InProcessFlapd {
        try await InProcessFlapd.start(
            stateDirectory: state, arguments: ["--no-sound", "--mqtt", "mqtt://127.0.0.1:\(broker.port)", "--device-id", device] + extra)
    }

    /// flapd as a process of its own, for what only a process shows: being killed.
    func process(_ broker: MosquittoBroker, device: String) async throws -> FlapdProcess {
        try await FlapdProcess.start(arguments: ["--no-sound", "--mqtt", "mqtt://127.0.0.1:\(broker.port)", "--device-id", device])
    }

    func receipts(_ watcher: Watcher, _ device: String) -> [[String: Any]] { watcher.json(on: "vestawidget/\(device)/receipt") }

    /// Waits until `device` says it is online on `broker`: it subscribes before it says so, and the
    /// broker takes a connection's packets in order, so its topics are listened to from then on.
    static func online(_ broker: MosquittoBroker, _ device: String) async throws {
        let watcher = try await Watcher(port: broker.port, topics: ["vestawidget/\(device)/availability"])
        defer { watcher.stop() }
        try await watcher.until("\(device) online") {
            $0.messages.last { $0.topic == "vestawidget/\(device)/availability" }?.payload == Array("online".utf8)
        }
    }

    @Test func payloadsFarOverTheLimitAreRefusedWithAReceiptNotDropped() async throws {
        let broker = try await MosquittoBroker.start()
        teardown { await broker.stop() }
        let watcher = try await Watcher(port: broker.port, topics: ["vestawidget/huge/receipt"])
        defer { watcher.stop() }
        let flapd = try await flapd(broker, device: "huge")
        teardown { await flapd.stop() }
        try await Self.online(broker, "huge")
        for size in [300_000, 2_000_000] {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("payload-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: file) }
            try Data((#"{"text": ""# + String(repeating: "A", count: size - 12) + #""}"#).utf8).write(to: URL(fileURLWithPath: file))
            let sent = try await ProcessRunner.run(
                "/usr/bin/mosquitto_pub", ["-p", "\(broker.port)", "-q", "1", "-t", "vestawidget/huge/message", "-f", file])
            #expect(sent.status == 0, "\(sent.stderrText)")
            try await watcher.until("the receipt for \(size) bytes") { w in
                self.receipts(w, "huge").contains {
                    ($0["reason"] as? String)?.hasPrefix("the payload is \(size) bytes; a message may be at most 64 KiB") == true
                }
            }
        }
        // Taken and acknowledged once, not dropped and redelivered on a new connection for ever.
        #expect(!flapd.said.contains("lost the MQTT broker"), "\(flapd.said)")
        #expect(try await flapd.api.postJSON("/v1/messages", #"{"text": "STILL HERE"}"#).status == 202)
    }

    func status(_ watcher: Watcher, _ device: String, _ id: String) -> [String] {
        receipts(watcher, device).filter { $0["id"] as? String == id }.compactMap { $0["status"] as? String }
    }

    @Test func messagesAreDeliveredAndEveryOutcomeGetsAReceipt() async throws {
        let broker = try await MosquittoBroker.start()
        teardown { await broker.stop() }
        let watcher = try await Watcher(port: broker.port, topics: ["vestawidget/#"])
        defer { watcher.stop() }
        let flapd = try await flapd(broker, device: "wall", extra: ["--rate-limit", "3"])
        teardown { await flapd.stop() }
        try await watcher.until("online") {
            $0.messages.contains { $0.topic == "vestawidget/wall/availability" && $0.payload == Array("online".utf8) }
        }
        let link = try await flapd.api.get("/v1/status").object["mqtt"] as? [String: Any] ?? [:]
        #expect(link["state"] as? String == "connected" && link["broker"] as? String == "127.0.0.1:\(broker.port)", "\(link)")

        try await publish(broker, "vestawidget/wall/message", #"{"id": "m1", "sender": {"id": "phone"}, "text": "HI"}"#)
        try await watcher.until("m1 displayed") { self.status($0, "wall", "m1") == ["accepted", "displayed"] }
        // The receipt and the retained state are two messages, in no promised order.
        try await watcher.until("m1's state") { $0.json(on: "vestawidget/wall/state").last?["message"] as? String == "m1" }
        let state = try #require(watcher.json(on: "vestawidget/wall/state").last)
        #expect(state["message"] as? String == "m1")
        #expect((state["text"] as? [String])?[2] == "          HI          ")

        // A VBML document is a message over MQTT too, read as on the native API.
        try await publish(
            broker, "vestawidget/wall/message",
            #"{"id": "v1", "sender": {"id": "vb"}, "vbml": {"components": [{"template": "{{a}}"}], "props": {"a": "HI"}}}"#)
        try await publish(
            broker, "vestawidget/wall/message",
            #"{"id": "vbad", "sender": {"id": "vb"}, "vbml": {"components": [{"template": "X", "style": {"width": 30}}]}}"#)
        try await watcher.until("the documents' receipts") { w in
            let all = self.receipts(w, "wall")
            return all.contains { $0["id"] as? String == "v1" } && all.contains { $0["id"] as? String == "vbad" }
        }
        #expect(receipts(watcher, "wall").contains { $0["id"] as? String == "v1" && $0["status"] as? String == "accepted" })
        #expect(
            receipts(watcher, "wall").contains {
                $0["id"] as? String == "vbad"
                    && ($0["reason"] as? String)?.contains("vbml.components[0].style.width: 30 is wider than the board (22)") == true
            })
        // So is a temporary message (Home Assistant's mqtt.publish of a DOOR OPEN alert): it covers the board for its seconds
        // (ten minutes: its slot is looked for after its receipt, however long a busy machine takes).
        try await publish(broker, "vestawidget/wall/message", #"{"id": "alert", "sender": {"id": "ha"}, "text": "DOOR OPEN", "duration": 600}"#)
        try await watcher.until("the alert's receipt") { w in self.receipts(w, "wall").contains { $0["id"] as? String == "alert" } }
        let slots = try await flapd.api.get("/v1/slots").object["slots"] as? [[String: Any]] ?? []
        #expect(slots.first { $0["id"] as? String == "alert" }?["duration"] as? Int == 600, "\(slots)")
        try await publish(broker, "vestawidget/wall/message", "{not json")
        try await publish(broker, "vestawidget/wall/message", #"{"id": "bad", "text": "a{99}b"}"#)
        try await publish(broker, "vestawidget/wall/message", #"{"id": "big", "text": ""# + String(repeating: "A", count: 70_000) + #""}"#)
        try await publish(broker, "vestawidget/wall/message", #"{"id": "m1", "sender": {"id": "phone"}, "text": "HI"}"#)
        for i in 0..<3 { try await publish(broker, "vestawidget/wall/message", #"{"id": "r\#(i)", "sender": {"id": "spam"}, "text": "x"}"#) }
        try await publish(broker, "vestawidget/wall/message", #"{"id": "r3", "sender": {"id": "spam"}, "text": "x"}"#)
        try await watcher.until("every outcome's receipt") { w in
            let all = self.receipts(w, "wall")
            // Each by its own receipt: counting refusals would count the document refused above.
            return ["bad", "r3"].allSatisfy { id in all.contains { $0["id"] as? String == id } }
                && all.contains { $0["reason"] as? String == "the body is not valid JSON" }
                && all.contains { ($0["reason"] as? String)?.contains("at most 64 KiB") == true }
                && all.contains { $0["id"] as? String == "m1" && $0["duplicate"] as? Bool == true }
        }
        let all = receipts(watcher, "wall")
        #expect(all.contains { $0["status"] as? String == "rejected" && $0["reason"] as? String == "the body is not valid JSON" })
        #expect(all.contains { $0["id"] as? String == "bad" && ($0["reason"] as? String)?.contains("unsupported character code: 99") == true })
        #expect(all.contains { $0["status"] as? String == "rejected" && ($0["reason"] as? String)?.contains("at most 64 KiB") == true })
        #expect(all.contains { $0["id"] as? String == "m1" && $0["duplicate"] as? Bool == true })
        #expect(all.contains { $0["id"] as? String == "r3" && ($0["reason"] as? String)?.hasPrefix("too many messages") == true })
        #expect(try await flapd.api.get("/v1/receipts/bad").status == 404)
    }

    @Test func aMessageSentForLaterOverMQTTWaitsForItsInstant() async throws {
        let broker = try await MosquittoBroker.start()
        teardown { await broker.stop() }
        let watcher = try await Watcher(port: broker.port, topics: ["vestawidget/#"])
        defer { watcher.stop() }
        let flapd = try await flapd(broker, device: "wall")
        teardown { await flapd.stop() }
        try await watcher.until("online") {
            $0.messages.contains { $0.topic == "vestawidget/wall/availability" && $0.payload == Array("online".utf8) }
        }
        // flapd's own receipts are the witness, not the test's clock: `scheduled` says flapd took it
        // before its instant, and the `at` of `displayed` says when it was shown. A machine so
        // busy that the message reached flapd after its instant gets a second try, further ahead.
        for (attempt, lead) in [(1, 10.0), (2, 45.0)] {
            let id = "later-\(attempt)"
            let instant = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + lead).rounded(.up))
            try await publish(
                broker, "vestawidget/wall/message",
                #"{"id": "\#(id)", "sender": {"id": "phone"}, "text": "LATER", "notBefore": "\#(ISO8601DateFormatter().string(from: instant))"}"#)
            try await watcher.until("\(id) taken") { !self.status($0, "wall", id).isEmpty }
            if status(watcher, "wall", id).first == "accepted", attempt == 1 { continue }
            #expect(status(watcher, "wall", id).first == "scheduled", "flapd took it after its instant twice")
            try await watcher.until("\(id) displayed") { self.status($0, "wall", id) == ["scheduled", "displayed"] }
            let shown = receipts(watcher, "wall").last { $0["id"] as? String == id }?["at"] as? String
            let shownAt = try #require(shown.flatMap { ISO8601DateFormatter().date(from: $0) })
            #expect(shownAt >= instant, "displayed at \(shownAt), before its instant \(instant)")
            return
        }
    }

    @Test func theCommandTopicAndAGroupReachEveryMember() async throws {
        let broker = try await MosquittoBroker.start()
        teardown { await broker.stop() }
        let watcher = try await Watcher(port: broker.port, topics: ["vestawidget/+/receipt", "vestawidget/+/availability"])
        defer { watcher.stop() }
        let a = try await flapd(broker, device: "a", extra: ["--group", "office"])
        let b = try await flapd(broker, device: "b", extra: ["--group", "office", "--group", "lobby"])
        let c = try await flapd(broker, device: "c", extra: ["--group", "lobby"])
        teardown {
            await a.stop(); await b.stop(); await c.stop()
        }
        // Each flapd says it is online after it subscribes: then the group's message reaches it.
        try await watcher.until("a, b and c online") { watcher in
            ["a", "b", "c"].allSatisfy { device in
                watcher.messages.contains { $0.topic == "vestawidget/\(device)/availability" && $0.payload == Array("online".utf8) }
            }
        }
        try await publish(broker, "vestawidget/group/office/message", #"{"id": "all-hands", "text": "MEETING"}"#)
        try await watcher.until("a and b accepted") {
            self.status($0, "a", "all-hands").contains("accepted") && self.status($0, "b", "all-hands").contains("accepted")
        }
        #expect(status(watcher, "c", "all-hands").isEmpty)
        try await publish(broker, "vestawidget/c/command", "plain text")
        try await watcher.until("command") { self.receipts($0, "c").contains { $0["sender"] as? String == "mqtt-command" } }
        let slots = try await c.api.get("/v1/slots").object["slots"] as? [[String: Any]]
        #expect(slots?.first?["sender"] as? String == "mqtt-command")
        #expect(slots?.first?["text"] as? [String] == ["plain text"])
    }

    @Test func retainedSlotsComeBackAfterARestartAndAnEmptyOneClearsTheSlot() async throws {
        let broker = try await MosquittoBroker.start()
        teardown { await broker.stop() }
        let watcher = try await Watcher(port: broker.port, topics: ["vestawidget/+/receipt"])
        defer { watcher.stop() }
        // Published while the display is off: the broker keeps it.
        try await publish(broker, "vestawidget/hall/slot/kitchen", #"{"id": "k1", "text": "SOUP"}"#, retain: true)
        let first = try await flapd(broker, device: "hall")
        try await watcher.until("k1") { self.status($0, "hall", "k1").contains("accepted") }
        #expect(try await first.api.get("/v1/slots").object["slots"].map { ($0 as? [[String: Any]])?.first?["sender"] as? String } == "kitchen")
        // A new display (empty state) gets the slot from the broker on its first connection.
        await first.stop()
        let second = try await flapd(broker, device: "hall")
        teardown { await second.stop() }
        _ = try await eventually(every: .milliseconds(20)) { try await second.api.get("/v1/receipts/k1").status == 200 }
        #expect(try await second.api.get("/v1/receipts/k1").status == 200)
        // A slot message names the topic's sender, not another.
        try await publish(broker, "vestawidget/hall/slot/kitchen", #"{"id": "k2", "sender": {"id": "garage"}, "text": "X"}"#, retain: true)
        try await watcher.until("k2 rejected") {
            $0.json(on: "vestawidget/hall/receipt").contains { $0["id"] as? String == "k2" && $0["status"] as? String == "rejected" }
        }
        try await publish(broker, "vestawidget/hall/slot/kitchen", "", retain: true)
        _ = try await eventually(every: .milliseconds(20)) { (try await second.api.get("/v1/slots").object["slots"] as? [Any])?.isEmpty == true }
        #expect((try await second.api.get("/v1/slots").object["slots"] as? [Any])?.isEmpty == true)
    }

    @Test func aRetainedCopyWithoutAnIdIsRecognisedAfterARestartEvenBehindANewerMessage() async throws {
        let broker = try await MosquittoBroker.start()
        teardown { await broker.stop() }
        let watcher = try await Watcher(port: broker.port, topics: ["vestawidget/+/receipt"])
        defer { watcher.stop() }
        try await publish(broker, "vestawidget/hall/slot/kitchen", #"{"text": "SOUP"}"#, retain: true)
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("retained-\(UUID().uuidString)").path
        let first = try await flapd(broker, device: "hall", state: state)
        try await watcher.until("SOUP accepted") { w in w.json(on: "vestawidget/hall/receipt").contains { $0["status"] as? String == "accepted" } }
        let original = try #require(watcher.json(on: "vestawidget/hall/receipt").first { $0["status"] as? String == "accepted" }?["id"] as? String)
        // The kitchen says something newer over HTTP; then flapd restarts and the broker hands it
        // the retained SOUP again: a copy of what it already took, not a new message over the newer one.
        #expect(try await first.api.postJSON("/v1/messages", #"{"text": "BREAD", "sender": {"id": "kitchen"}}"#).status == 202)
        await first.stop()
        let second = try await flapd(broker, device: "hall", state: state)
        teardown { await second.stop() }
        try await watcher.until("the copy recognised") { w in
            w.json(on: "vestawidget/hall/receipt").contains { $0["id"] as? String == original && $0["duplicate"] as? Bool == true }
        }
        let slots = try await second.api.get("/v1/slots").object["slots"] as? [[String: Any]] ?? []
        #expect(slots.compactMap { $0["text"] as? [String] } == [["BREAD"]], "\(slots)")
    }

    @Test func aRetainedCopyPastItsExpiryIsExpiredNotShown() async throws {
        let broker = try await MosquittoBroker.start()
        teardown { await broker.stop() }
        let watcher = try await Watcher(port: broker.port, topics: ["vestawidget/+/receipt"])
        defer { watcher.stop() }
        let formatter = ISO8601DateFormatter()
        let created = formatter.string(from: Date().addingTimeInterval(-7200))
        let expired = formatter.string(from: Date().addingTimeInterval(-3600))
        // What a 3.1.1 broker (no message expiry) would still hold for a display that was off.
        try await publish(
            broker, "vestawidget/x/slot/clock", #"{"id": "old-news", "text": "NOON", "createdAt": "\#(created)", "expiresAt": "\#(expired)"}"#,
            retain: true)
        let flapd = try await flapd(broker, device: "x")
        teardown { await flapd.stop() }
        try await watcher.until("expired") { self.status($0, "x", "old-news") == ["expired"] }
        #expect((try await flapd.api.get("/v1/slots").object["slots"] as? [Any])?.isEmpty == true)
    }

    @Test func aKilledDisplayGoesOfflineThroughItsWillAndAStoppedOneSaysSo() async throws {
        let broker = try await MosquittoBroker.start()
        teardown { await broker.stop() }
        let watcher = try await Watcher(port: broker.port, topics: ["vestawidget/+/availability"])
        defer { watcher.stop() }
        let killed = try await process(broker, device: "k")
        try await watcher.until("k online") {
            $0.messages.contains { $0.topic == "vestawidget/k/availability" && $0.payload == Array("online".utf8) }
        }
        killed.process.signal(SIGKILL)
        try await watcher.until("k offline") { $0.messages.last { $0.topic == "vestawidget/k/availability" }?.payload == Array("offline".utf8) }
        let stopped = try await process(broker, device: "s")
        try await watcher.until("s online") { $0.messages.contains { $0.topic == "vestawidget/s/availability" } }
        stopped.process.signal(SIGTERM)
        #expect(await stopped.process.wait() == 0)
        try await watcher.until("s offline") { $0.messages.last { $0.topic == "vestawidget/s/availability" }?.payload == Array("offline".utf8) }
    }

    @Test func homeAssistantSeesTheDisplayAndLosesItWhenItsIdChanges() async throws {
        let broker = try await MosquittoBroker.start()
        teardown { await broker.stop() }
        let watcher = try await Watcher(port: broker.port, topics: ["homeassistant/#"])
        defer { watcher.stop() }
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("ha-\(UUID().uuidString)").path
        let old = try await flapd(broker, device: "oldname", state: state)
        try await watcher.until("discovery") { $0.messages.contains { $0.topic == "homeassistant/text/vestawidget_oldname/message/config" } }
        let text = try #require(watcher.json(on: "homeassistant/text/vestawidget_oldname/message/config").first)
        #expect(text["command_topic"] as? String == "vestawidget/oldname/ha/set")
        #expect(text["availability_topic"] as? String == "vestawidget/oldname/availability")
        await old.stop()
        let renamed = try await flapd(broker, device: "newname", state: state)
        teardown { await renamed.stop() }
        try await watcher.until("the new name announced") {
            $0.messages.contains { $0.topic == "homeassistant/sensor/vestawidget_newname/board/config" }
        }
        try await watcher.until("the old name removed") {
            $0.messages.contains { $0.topic == "homeassistant/text/vestawidget_oldname/message/config" && $0.payload.isEmpty }
        }
        // Home Assistant's text entity sends plain text to ha/set.
        try await publish(broker, "vestawidget/newname/ha/set", "from home assistant")
        _ = try await eventually(every: .milliseconds(20)) {
            (try await renamed.api.get("/v1/slots").object["slots"] as? [[String: Any]])?.first?["sender"] as? String == "home-assistant"
        }
        #expect((try await renamed.api.get("/v1/slots").object["slots"] as? [[String: Any]])?.first?["sender"] as? String == "home-assistant")

        // A display retired for good: flapctl forget clears what the broker keeps for it.
        await renamed.stop()
        let forget = try await ProcessRunner.run(
            ProcessRunner.builtProduct("flapctl"), ["forget", "--mqtt", "mqtt://127.0.0.1:\(broker.port)", "--device-id", "newname"])
        #expect(forget.status == 0, "\(forget.stderrText)")
        // A new subscriber gets no retained config for it any more (the watcher is ready once
        // every retained message of its topics has reached it).
        let late = try await Watcher(port: broker.port, topics: ["homeassistant/#", "vestawidget/newname/#"])
        defer { late.stop() }
        #expect(
            !late.messages.contains { $0.topic.contains("vestawidget_newname") && !$0.payload.isEmpty },
            "\(late.messages.filter { !$0.payload.isEmpty }.map(\.topic))")
        #expect(!late.messages.contains { $0.topic == "vestawidget/newname/availability" && !$0.payload.isEmpty })
    }
}

/// What Home Assistant shows of the board: the state from the start, and each text's outcome.
@Suite(.cleansUp, .timeLimit(.minutes(2))) struct HomeAssistantOutcomeTests {
    let suite = MQTTServiceTests()

    @Test func theBoardIsPublishedOnConnectingEvenToABrokerThatLostItsRetainedMessages() async throws {
        let first = try await InProcessFlapd.start(arguments: ["--no-sound"])
        #expect(try await first.api.postJSON("/v1/messages", #"{"text": "SHOWN BEFORE"}"#).status == 202)
        #expect(try await RepeatedMessagesTests.shows(first, "SHOWN BEFORE"))
        await first.stop()
        // A broker that never heard of this display (or lost its retained messages).
        let broker = try await MosquittoBroker.start()
        teardown { await broker.stop() }
        let watcher = try await MQTTServiceTests.Watcher(port: broker.port, topics: ["vestawidget/#"])
        defer { watcher.stop() }
        let second = try await suite.flapd(broker, device: "fresh", state: first.stateDirectory)
        teardown { await second.stop() }
        try await watcher.until("the state on connecting") {
            ($0.json(on: "vestawidget/fresh/state").last?["text"] as? [String])?.joined().contains("SHOWN BEFORE") == true
        }
    }

    @Test func aRefusedTextIsVisibleInHomeAssistantsOutcomeSensor() async throws {
        let broker = try await MosquittoBroker.start()
        teardown { await broker.stop() }
        let watcher = try await MQTTServiceTests.Watcher(port: broker.port, topics: ["vestawidget/#", "homeassistant/#"])
        defer { watcher.stop() }
        let flapd = try await suite.flapd(broker, device: "hall", extra: ["--rate-limit", "1"])
        teardown { await flapd.stop() }
        try await watcher.until("discovery of the outcome sensor") {
            $0.messages.contains { $0.topic == "homeassistant/sensor/vestawidget_hall/outcome/config" }
        }
        let config = try #require(watcher.json(on: "homeassistant/sensor/vestawidget_hall/outcome/config").first)
        #expect(
            config["state_topic"] as? String == "vestawidget/hall/ha/outcome"
                && config["json_attributes_topic"] as? String == "vestawidget/hall/ha/outcome")
        try await suite.publish(broker, "vestawidget/hall/ha/set", "HELLO")
        try await watcher.until("displayed on ha/outcome") { $0.json(on: "vestawidget/hall/ha/outcome").last?["status"] as? String == "displayed" }
        // Over the sender's rate: refused, and Home Assistant is told why.
        try await suite.publish(broker, "vestawidget/hall/ha/set", "AGAIN")
        try await watcher.until("the refusal on ha/outcome") { $0.json(on: "vestawidget/hall/ha/outcome").last?["status"] as? String == "rejected" }
        let refusal = try #require(watcher.json(on: "vestawidget/hall/ha/outcome").last)
        #expect((refusal["reason"] as? String)?.hasPrefix("too many messages") == true, "\(refusal)")
        // A late subscriber (Home Assistant restarting) gets the last outcome: it is retained.
        let late = try await MQTTServiceTests.Watcher(port: broker.port, topics: ["vestawidget/hall/ha/outcome"])
        defer { late.stop() }
        #expect(late.json(on: "vestawidget/hall/ha/outcome").last?["status"] as? String == "rejected")
    }

    /// Home Assistant posts as home-assistant only (an automation's JSON naming a member's
    /// sender is refused, saying so), and its outcome keeps the warnings of a text that had
    /// characters replaced once it is displayed.
    @Test func homeAssistantPostsAsItselfAndItsOutcomeKeepsTheWarnings() async throws {
        let broker = try await MosquittoBroker.start()
        teardown { await broker.stop() }
        let watcher = try await MQTTServiceTests.Watcher(port: broker.port, topics: ["vestawidget/#"])
        defer { watcher.stop() }
        let flapd = try await suite.flapd(broker, device: "hall")
        teardown { await flapd.stop() }
        // Listening once it says it is online (its subscriptions are made before).
        try await watcher.until("hall online") { $0.messages.last { $0.topic == "vestawidget/hall/availability" }?.payload == Array("online".utf8) }
        try await suite.publish(broker, "vestawidget/hall/ha/set", #"{"text": "FROM MUM", "sender": {"id": "mum"}}"#)
        try await watcher.until("the refusal on ha/outcome") { $0.json(on: "vestawidget/hall/ha/outcome").last?["status"] as? String == "rejected" }
        let refusal = try #require(watcher.json(on: "vestawidget/hall/ha/outcome").last)
        #expect((refusal["reason"] as? String)?.hasPrefix("sender: a message on ha/set is always from home-assistant") == true, "\(refusal)")
        #expect(try await flapd.api.get("/v1/slots").text.contains("FROM MUM") == false)
        try await suite.publish(broker, "vestawidget/hall/ha/set", "HI 🦄")
        try await watcher.until("displayed on ha/outcome") { $0.json(on: "vestawidget/hall/ha/outcome").last?["status"] as? String == "displayed" }
        let displayed = try #require(watcher.json(on: "vestawidget/hall/ha/outcome").last)
        let warnings = displayed["warnings"] as? [String] ?? []
        #expect(warnings.count == 1 && warnings[0].contains("🦄"), "\(displayed)")
    }
}

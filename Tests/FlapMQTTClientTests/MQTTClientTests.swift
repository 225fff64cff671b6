import Foundation
import TestSupport
import Testing

@testable import FlapMQTTClient

/// The MQTT client against a real mosquitto broker.
@Suite(.cleansUp, .timeLimit(.minutes(3))) struct MQTTClientTests {
    /// Waits for the first event that `match` accepts.
    func next<T>(_ events: inout AsyncStream<MQTTEvent>.Iterator, _ match: (MQTTEvent) -> T?) async -> T? {
        while let event = await events.next() { if let value = match(event) { return value } }
        return nil
    }

    func connected(_ event: MQTTEvent) -> Bool? { if case .connected(0, _) = event { return true }; return nil }
    func message(_ event: MQTTEvent) -> MQTTMessage? { if case .message(let m) = event { return m }; return nil }

    /// A failure says what kind it is, so a caller acts on the kind (say once that the queue is
    /// full while the broker is away) and not on the words.
    @Test func aFailedPublishSaysWhatKindOfFailureItIs() async throws {
        var options = MQTTOptions(host: "127.0.0.1", port: 1, clientID: "nobody-home")
        options.outgoingLimit = 2
        let client = try MQTTClient(options: options)
        try client.publish("t/a", [1], qos: 1)
        try client.publish("t/b", [2], qos: 1)
        #expect(throws: MQTTError.self) { try client.publish("t/c", [3], qos: 1) }
        do { try client.publish("t/c", [3], qos: 1) } catch { #expect(error.code == .queueFull) }
        do { try client.publish("t/+", [4], qos: 0) } catch { #expect(error.code == .invalid) }
        client.stop()
        let other = try MQTTClient(options: MQTTOptions(host: "127.0.0.1", port: 1, clientID: "stopped"))
        other.stop()
        do { try other.publish("t/d", [5], qos: 0); Issue.record("a stopped client took a message") } catch { #expect(error.code == .stopped) }
    }

    @Test func publishesSubscribesAndReceivesRetainedMessages() async throws {
        let broker = try await MosquittoBroker.start()
        teardown { await broker.stop() }
        let a = try MQTTClient(options: MQTTOptions(host: "127.0.0.1", port: broker.port, clientID: "a"))
        var aEvents = a.events.makeAsyncIterator()
        a.start()
        #expect(await next(&aEvents, connected) == true)
        // A hears its own message once the broker has it: only then is it retained there. (The
        // broker handles the subscription first: a connection's packets are handled in order.)
        try a.subscribe("t/retained", qos: 1)
        try a.publish("t/retained", Array("kept".utf8), qos: 1, retain: true, expiry: 60)
        #expect(await next(&aEvents, message)?.topic == "t/retained")

        let b = try MQTTClient(options: MQTTOptions(host: "127.0.0.1", port: broker.port, clientID: "b"))
        var bEvents = b.events.makeAsyncIterator()
        b.start()
        #expect(await next(&bEvents, connected) == true)
        try b.subscribe("t/#", qos: 1)
        let retained = await next(&bEvents, message)
        #expect(retained?.topic == "t/retained" && retained?.payload == Array("kept".utf8) && retained?.retained == true)
        try a.publish("t/live", [1, 2, 3], qos: 1)
        let live = await next(&bEvents, message)
        #expect(live?.topic == "t/live" && live?.payload == [1, 2, 3] && live?.retained == false)
        a.stop()
        b.stop()
    }

    @Test func itReconnectsAfterTheBrokerComesBack() async throws {
        let broker = try await MosquittoBroker.start()
        teardown { await broker.stop() }
        let client = try MQTTClient(options: MQTTOptions(host: "127.0.0.1", port: broker.port, clientID: "again"))
        var events = client.events.makeAsyncIterator()
        client.start()
        #expect(await next(&events, connected) == true)
        try await broker.restart()
        let lost = await next(&events) {
            if case .disconnected = $0 { return true }; return nil
        }
        #expect(lost == true)
        #expect(await next(&events, connected) == true)
        client.stop()
    }
}

import FlapClocks
import NIOCore
import TestSupport
import Testing

@testable import FlapMQTTClient

/// The session's acknowledgements of what it receives, packet by packet on an in-memory
/// channel: held until the caller says the message is safe, released in arrival order, and
/// never sent on a connection other than the one the message came on.
@Suite(.timeLimit(.minutes(3))) struct MQTTSessionAcknowledgementTests {
    /// A client held by the test, connected to `broker` (the CONNECT answered) and subscribed.
    struct Connected {
        let client: MQTTClient
        let clock: ManualClock
        let wire: PlayedConnection
        var events: AsyncStream<MQTTEvent>.Iterator

        /// The next message event, skipping none: anything else first is an error.
        mutating func message() async throws -> MQTTMessage {
            let event = await events.next()
            guard case .message(let message) = event else { throw PeerError("expected a message, got \(String(describing: event))") }
            return message
        }

        /// Proves nothing was written meanwhile: the client's next packet is a QoS 0 marker
        /// published now, after everything the test did before.
        func nothingSent(sourceLocation: SourceLocation = #_sourceLocation) async throws {
            try client.publish("marker", [], qos: 0)
            try await wire.expect(.other(.message("marker", "", qos: 0)), sourceLocation: sourceLocation)
        }
    }

    static func connect(_ broker: PlayedBroker, manual: Bool = true, sessionPresent: Bool = false) async throws -> Connected {
        var options = MQTTOptions(host: "broker.test", port: 1883, clientID: "session-test")
        options.protocolVersion = broker.level == .v5 ? .v5 : .v311
        options.manualAcknowledgement = manual
        let clock = ManualClock()
        let client = try MQTTClient(options: options, transport: broker, clock: clock)
        var events = client.events.makeAsyncIterator()
        client.start()
        let wire = await broker.accept()
        try await wire.expect(.connect(cleanStart: false, keepAlive: 30))
        try await wire.send(.connack(.init(sessionPresent: sessionPresent, code: 0)))
        guard case .connected(0, sessionPresent) = await events.next() else { throw PeerError("no connected event") }
        return Connected(client: client, clock: clock, wire: wire, events: events)
    }

    @Test func aHeldMessageIsAcknowledgedWhenTheCallerSaysAndInTheOrderMessagesArrived() async throws {
        var session = try await Self.connect(PlayedBroker())
        defer { session.client.stop() }
        try await session.wire.send(.message("t/a", "first", qos: 1, id: 1), .message("t/b", "second", qos: 1, id: 2))
        let first = try await session.message()
        let second = try await session.message()
        #expect(first.topic == "t/a" && second.topic == "t/b")
        try await session.nothingSent()
        // The second is safe first: it waits for the first (MQTT acknowledges in arrival order).
        session.client.acknowledge(second)
        try await session.nothingSent()
        session.client.acknowledge(first)
        try await session.wire.expect(.other(.puback(.init(packetID: 1))))
        try await session.wire.expect(.other(.puback(.init(packetID: 2))))
        // Said twice: nothing more is owed.
        session.client.acknowledge(first)
        try await session.nothingSent()
    }

    @Test func aQoS2MessageIsReceivedWhenTheCallerSaysAndCompletedWhenTheBrokerReleasesIt() async throws {
        var session = try await Self.connect(PlayedBroker())
        defer { session.client.stop() }
        try await session.wire.send(.message("t/q2", "once", qos: 2, id: 7))
        let message = try await session.message()
        #expect(message.qos == 2)
        try await session.nothingSent()
        session.client.acknowledge(message)
        try await session.wire.expect(.other(.pubrec(.init(packetID: 7))))
        // The broker missed the PUBREC and sends the message again: PUBREC again, not a second delivery.
        try await session.wire.send(.message("t/q2", "once", qos: 2, id: 7, duplicate: true), .message("t/next", "after", qos: 0))
        try await session.wire.expect(.other(.pubrec(.init(packetID: 7))))
        #expect(try await session.message().topic == "t/next")
        try await session.wire.send(.pubrel(.init(packetID: 7)))
        try await session.wire.expect(.other(.pubcomp(.init(packetID: 7))))
        // A release of a packet this process never received (the broker kept it from an earlier
        // one) is completed with "packet identifier not found".
        try await session.wire.send(.pubrel(.init(packetID: 9)))
        try await session.wire.expect(.other(.pubcomp(.init(packetID: 9, code: 0x92))))
    }

    @Test func aResendOfAMessageStillHeldIsNeitherDeliveredNorAcknowledgedTwice() async throws {
        var session = try await Self.connect(PlayedBroker())
        defer { session.client.stop() }
        try await session.wire.send(.message("t/r", "held", qos: 1, id: 3))
        let message = try await session.message()
        try await session.wire.send(.message("t/r", "held", qos: 1, id: 3, duplicate: true), .message("t/next", "after", qos: 0))
        #expect(try await session.message().topic == "t/next")
        session.client.acknowledge(message)
        try await session.wire.expect(.other(.puback(.init(packetID: 3))))
        try await session.nothingSent()
    }

    @Test func anAcknowledgementFromALostConnectionIsNotSentOnTheNextAndTheRedeliveryIs() async throws {
        let broker = PlayedBroker()
        var session = try await Self.connect(broker)
        defer { session.client.stop() }
        try await session.wire.send(.message("t/lost", "in flight", qos: 1, id: 4))
        let message = try await session.message()
        try await session.wire.drop()
        guard case .disconnected = await session.events.next() else { throw PeerError("no disconnected event") }
        // The first retry is 1 s ± 25 % later.
        await session.clock.sleepers(atLeast: 1)
        await session.clock.advance(by: .seconds(2))
        let again = await broker.accept()
        try await again.expect(.connect(cleanStart: false, keepAlive: 30))
        try await again.send(.connack(.init(sessionPresent: true, code: 0)))
        guard case .connected(0, true) = await session.events.next() else { throw PeerError("no connected event") }
        let reconnected = Connected(client: session.client, clock: session.clock, wire: again, events: session.events)
        session = reconnected
        // The broker delivers it again under the same packet id; the first delivery, stored
        // meanwhile, is acknowledged now: its connection is gone, so nothing goes on this one,
        // and it does not stand for the redelivery, which is not stored yet.
        try await session.wire.send(.message("t/lost", "in flight", qos: 1, id: 4, duplicate: true))
        let redelivered = try await session.message()
        #expect(redelivered.duplicate && redelivered.payload == Array("in flight".utf8))
        session.client.acknowledge(message)
        try await session.nothingSent()
        session.client.acknowledge(redelivered)
        try await session.wire.expect(.other(.puback(.init(packetID: 4))))
    }

    @Test func withoutManualAcknowledgementMessagesAreAcknowledgedOnArrival() async throws {
        var session = try await Self.connect(PlayedBroker(level: .v311), manual: false)
        defer { session.client.stop() }
        try await session.wire.send(.message("t/auto", "a", qos: 1, id: 5), .message("t/auto", "b", qos: 2, id: 6))
        try await session.wire.expect(.other(.puback(.init(packetID: 5))))
        try await session.wire.expect(.other(.pubrec(.init(packetID: 6))))
        #expect(try await session.message().payload == Array("a".utf8))
        // In 3.1.1 an unknown release is completed without a reason code.
        try await session.wire.send(.pubrel(.init(packetID: 6)), .pubrel(.init(packetID: 99)))
        try await session.wire.expect(.other(.pubcomp(.init(packetID: 6))))
        try await session.wire.expect(.other(.pubcomp(.init(packetID: 99))))
    }
}

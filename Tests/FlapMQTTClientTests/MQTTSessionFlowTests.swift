import FlapClocks
import NIOCore
import TestSupport
import Testing

@testable import FlapMQTTClient

/// The session's own side, packet by packet on an in-memory channel and a manual clock: what
/// it sends and sends again after a reconnection, keepalive, a broker that does not answer or
/// breaks the protocol, and stopping with messages still in flight.
@Suite(.timeLimit(.minutes(3))) struct MQTTSessionFlowTests {
    typealias Connected = MQTTSessionAcknowledgementTests.Connected

    /// Waits for the client's retry (1 s ± 25 % after a first loss), lets it happen, and answers
    /// the new connection's CONNECT.
    static func reconnect(_ session: inout Connected, _ broker: PlayedBroker, sessionPresent: Bool) async throws {
        await session.clock.sleepers(atLeast: 1)
        await session.clock.advance(by: .seconds(2))
        let wire = await broker.accept()
        try await wire.expect(.connect(cleanStart: false, keepAlive: 30))
        try await wire.send(.connack(.init(sessionPresent: sessionPresent, code: 0)))
        guard case .connected(0, sessionPresent) = await session.events.next() else { throw PeerError("no connected event") }
        session = Connected(client: session.client, clock: session.clock, wire: wire, events: session.events)
    }

    /// The error `work` ends with, or nil when it succeeds.
    static func failure(of work: () async throws -> Void) async -> MQTTError? {
        do {
            try await work()
            return nil
        } catch {
            return error as? MQTTError
        }
    }

    /// Moves the clock on `count` ticks (5 s each, the ticker's period at keepalive 30 s), each
    /// once the ticker sleeps again. The session handles each tick before anything the test
    /// asks of it afterwards (one input stream, in order).
    static func tick(_ clock: ManualClock, _ count: Int) async {
        for _ in 0..<count {
            await clock.sleepers(atLeast: 1)
            await clock.advance(by: .seconds(5))
        }
    }

    static func lose(_ session: inout Connected) async throws {
        try await session.wire.drop()
        guard case .disconnected = await session.events.next() else { throw PeerError("no disconnected event") }
    }

    @Test func aQoS1MessageIsResentWithDUPUntilTheBrokerHasItAndItsSenderIsThenAnswered() async throws {
        let broker = PlayedBroker()
        var session = try await MQTTSessionAcknowledgementTests.connect(broker)
        defer { session.client.stop() }
        let client = session.client
        async let confirmed: Void = client.publishConfirmed("t/out", Array("hello".utf8), qos: 1)
        let sent = try await session.wire.next()
        guard case .other(.publish(let publish)) = sent, let id = publish.packetID else { throw PeerError("expected a PUBLISH, got \(sent)") }
        #expect(publish.topic == "t/out" && publish.qos == 1 && !publish.duplicate)
        try await Self.lose(&session)
        try await Self.reconnect(&session, broker, sessionPresent: true)
        var again = publish
        again.duplicate = true
        try await session.wire.expect(.other(.publish(again)))
        try await session.wire.send(.puback(.init(packetID: id)))
        try await confirmed
    }

    @Test func aBrokerThatLostTheSessionGetsTheMessageAgainAsANewOne() async throws {
        let broker = PlayedBroker()
        var session = try await MQTTSessionAcknowledgementTests.connect(broker)
        defer { session.client.stop() }
        try session.client.publish("t/a", [1], qos: 1)
        try session.client.publish("t/b", [2], qos: 2)
        guard case .other(.publish(let a)) = try await session.wire.next(), case .other(.publish(let b)) = try await session.wire.next() else {
            throw PeerError("expected two PUBLISH")
        }
        try await Self.lose(&session)
        try await Self.reconnect(&session, broker, sessionPresent: false)
        // In the same order, without DUP (the broker never saw them), under new packet ids.
        for original in [a, b] {
            guard case .other(.publish(let resent)) = try await session.wire.next() else { throw PeerError("expected a PUBLISH") }
            #expect(resent.topic == original.topic && resent.qos == original.qos && !resent.duplicate && resent.packetID != nil)
        }
    }

    @Test func aQoS2MessageIsReleasedAndAfterAReconnectionOnlyItsReleaseGoesAgain() async throws {
        let broker = PlayedBroker()
        var session = try await MQTTSessionAcknowledgementTests.connect(broker)
        defer { session.client.stop() }
        let client = session.client
        async let confirmed: Void = client.publishConfirmed("t/exactly-once", [9], qos: 2)
        guard case .other(.publish(let publish)) = try await session.wire.next(), let id = publish.packetID else {
            throw PeerError("expected a PUBLISH")
        }
        try await session.wire.send(.pubrec(.init(packetID: id)))
        try await session.wire.expect(.other(.pubrel(.init(packetID: id))))
        try await Self.lose(&session)
        try await Self.reconnect(&session, broker, sessionPresent: true)
        try await session.wire.expect(.other(.pubrel(.init(packetID: id))))
        try await session.wire.send(.pubcomp(.init(packetID: id)))
        try await confirmed
    }

    @Test func aRefusedMessageIsReportedToItsSender() async throws {
        var session = try await MQTTSessionAcknowledgementTests.connect(PlayedBroker())
        defer { session.client.stop() }
        let client = session.client
        let confirmed = Task { try await client.publishConfirmed("t/denied", [0], qos: 1) }
        guard case .other(.publish(let publish)) = try await session.wire.next(), let id = publish.packetID else {
            throw PeerError("expected a PUBLISH")
        }
        try await session.wire.send(.puback(.init(packetID: id, code: 0x87)))
        #expect(
            await Self.failure(of: { try await confirmed.value })
                == MQTTError("the broker refused the message to t/denied (reason 0x87)", code: .refused))
    }

    @Test func keepaliveSendsPingsAndLeavesABrokerThatStopsAnswering() async throws {
        var session = try await MQTTSessionAcknowledgementTests.connect(PlayedBroker())
        defer { session.client.stop() }
        let (clock, wire) = (session.clock, session.wire)
        // Keepalive 30 s. After 25 s of silence no ping yet: the next packet is the probe's SUBSCRIBE.
        await Self.tick(clock, 5)
        try session.client.subscribe("probe")
        guard case .subscribe = try await wire.next() else { throw PeerError("a packet before the probe's SUBSCRIBE") }
        // 30 s after that, a ping.
        await Self.tick(clock, 6)
        try await wire.expect(.pingreq)
        // Unanswered for 30 s: still waiting (the probe again comes first), …
        await Self.tick(clock, 6)
        try session.client.subscribe("probe")
        guard case .subscribe = try await wire.next() else { throw PeerError("a packet before the probe's SUBSCRIBE") }
        // … and past that the client says why and closes.
        await Self.tick(clock, 1)
        try await wire.expect(.other(.disconnect(.init(code: 0x8D))))
        try await wire.closed()
        guard case .disconnected(let reason) = await session.events.next() else { throw PeerError("no disconnected event") }
        #expect(reason == "the broker did not answer a ping within 30 s")
    }

    @Test func aPingAnsweredKeepsTheConnection() async throws {
        var session = try await MQTTSessionAcknowledgementTests.connect(PlayedBroker())
        defer { session.client.stop() }
        await Self.tick(session.clock, 6)
        try await session.wire.expect(.pingreq)
        try await session.wire.send(.pingresp)
        // Answered: at the next 30 s of silence another ping, not a goodbye.
        await Self.tick(session.clock, 6)
        try await session.wire.expect(.pingreq)
    }

    @Test func aBrokerThatNeverAnswersCONNECTIsLeftAfter10sAndTriedAgain() async throws {
        var options = MQTTOptions(host: "broker.test", port: 1883, clientID: "silent")
        options.manualAcknowledgement = true
        let broker = PlayedBroker()
        let clock = ManualClock()
        let client = try MQTTClient(options: options, transport: broker, clock: clock)
        defer { client.stop() }
        var events = client.events.makeAsyncIterator()
        client.start()
        let wire = await broker.accept()
        try await wire.expect(.connect(cleanStart: false, keepAlive: 30))
        await Self.tick(clock, 3)
        try await wire.closed()
        guard case .connectFailed(let reason) = await events.next() else { throw PeerError("no connectFailed event") }
        #expect(reason == "the broker did not answer CONNECT within 10 s")
        await clock.sleepers(atLeast: 1)
        await clock.advance(by: .seconds(2))
        try await broker.accept().expect(.connect(cleanStart: false, keepAlive: 30))
    }

    @Test func aBrokerBreakingTheProtocolIsToldWhyAndLeft() async throws {
        var session = try await MQTTSessionAcknowledgementTests.connect(PlayedBroker())
        defer { session.client.stop() }
        try await session.wire.send(.puback(.init(packetID: 42)))
        try await session.wire.expect(.other(.disconnect(.init(code: 0x82))))
        try await session.wire.closed()
        guard case .disconnected(let reason) = await session.events.next() else { throw PeerError("no disconnected event") }
        #expect(reason.contains("an acknowledgement for packet 42, which is not in flight"))
    }

    @Test func stoppingWaitsForTheBrokerToHaveEveryMessageThenSaysGoodbye() async throws {
        let session = try await MQTTSessionAcknowledgementTests.connect(PlayedBroker())
        try session.client.publish("t/last", [1], qos: 1)
        guard case .other(.publish(let publish)) = try await session.wire.next(), let id = publish.packetID else {
            throw PeerError("expected a PUBLISH")
        }
        let client = session.client
        async let stopped: Void = client.disconnect(within: .seconds(5))
        await session.clock.sleepers(atLeast: 2)  // the ticker and the stop's deadline
        try await session.wire.send(.puback(.init(packetID: id)))
        try await session.wire.expect(.other(.disconnect(.init())))
        try await session.wire.closed()
        await stopped
    }

    @Test func stoppingGivesUpOnAnUnansweredMessageAtItsDeadline() async throws {
        let session = try await MQTTSessionAcknowledgementTests.connect(PlayedBroker())
        let client = session.client
        let confirmed = Task { try await client.publishConfirmed("t/unanswered", [1], qos: 1) }
        guard case .other(.publish) = try await session.wire.next() else { throw PeerError("expected a PUBLISH") }
        async let stopped: Void = client.disconnect(within: .seconds(5))
        await session.clock.sleepers(atLeast: 2)
        await session.clock.advance(by: .seconds(5))
        try await session.wire.expect(.other(.disconnect(.init())))
        await stopped
        #expect(
            await Self.failure(of: { try await confirmed.value })
                == MQTTError("the MQTT client stopped before the broker acknowledged the message", code: .stopped))
    }
}

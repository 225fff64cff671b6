import NIOCore
import NIOSSL
import Synchronization

/// An MQTT client on swift-nio: MQTT 5 (or 3.1.1), QoS 0–2 both ways, retained messages, a
/// will, a persistent session, TLS, username and password, keepalive, and acknowledgements
/// the caller can hold back until a message is safely stored (``MQTTOptions/manualAcknowledgement``).
///
/// Whenever the connection is lost or cannot be made it waits 1, 2, 4, 8 … up to 30 s, each
/// with ±25 % jitter so a fleet does not reconnect in step, and tries again, for ever. What
/// happens arrives as ``events``. Messages published while disconnected wait (up to
/// ``MQTTOptions/outgoingLimit``) and go when the connection is back.
///
/// Written here rather than taken from a library: libmosquitto 2.0.11 and Paho C send PUBACK
/// before the application sees the message, and no Swift package at hand leaves it to the caller.
public final class MQTTClient: Sendable {
    /// What it connects with.
    public let options: MQTTOptions
    /// Connections, losses and messages, in order.
    public let events: AsyncStream<MQTTEvent>
    private let eventContinuation: AsyncStream<MQTTEvent>.Continuation
    private let inputs: AsyncStream<MQTTSessionInput>
    private let input: AsyncStream<MQTTSessionInput>.Continuation
    private let session: SessionBox
    /// The task running the session, once started; `disconnect` waits for it to end.
    private let running = Mutex<Task<Void, Never>?>(nil)
    private let queued: QueuedCount

    /// A client of the broker at `options.host`:`options.port`, over TCP (TLS when configured).
    public convenience init(options: MQTTOptions) throws(MQTTError) {
        let tls = try options.tls.map { tls throws(MQTTError) in try Self.context(tls) }
        try self.init(options: options, transport: SocketTransport(host: options.host, port: options.port, tls: tls), clock: ContinuousClock())
    }

    /// A client whose connections come from `transport` and whose timers (keepalive, backoff,
    /// the CONNACK deadline) run on `clock`.
    init<C: Clock<Duration>>(options: MQTTOptions, transport: any MQTTTransport, clock: C) throws(MQTTError) where C: Sendable {
        guard !options.host.isEmpty, (1...65535).contains(options.port) else { throw MQTTError("no broker address (host and port)") }
        guard (0...65535).contains(options.keepAlive) else { throw MQTTError("keepalive must be 0 to 65535 s") }
        guard options.clientID.utf8.count <= 65535 else { throw MQTTError("the client id is too long") }
        if let will = options.will { try Self.validate(topic: will.topic, qos: will.qos) }
        self.options = options
        (events, eventContinuation) = AsyncStream.makeStream(of: MQTTEvent.self)
        (inputs, input) = AsyncStream.makeStream(of: MQTTSessionInput.self)
        let queued = QueuedCount(limit: options.outgoingLimit)
        self.queued = queued
        session = SessionBox(
            MQTTSession(options: options, transport: transport, clock: clock, input: input, events: eventContinuation, queued: queued))
    }

    deinit { stop() }

    /// Starts connecting (and reconnecting).
    public func start() {
        running.withLock { running in
            guard running == nil else { return }
            running = Task { [inputs, session] in await session.run(inputs) }
        }
    }

    /// Disconnects cleanly (no will) at once and ends ``events``; unsent messages are dropped.
    public func stop() {
        if running.withLock({ $0 != nil }) {
            input.yield(.stop(flushWithin: nil, done: nil))
        } else {
            eventContinuation.finish()
            input.finish()
        }
    }

    /// Waits (at most `within`) until the broker has every queued message, then disconnects
    /// cleanly, ends ``events`` and returns once the session's work is over.
    public func disconnect(within: Duration) async {
        guard let task = running.withLock({ $0 }) else { return stop() }
        await withCheckedContinuation { done in
            if case .terminated = input.yield(.stop(flushWithin: within, done: done)) { done.resume() }
        }
        await task.value
    }

    /// Subscribes to `filter` if connected. Subscriptions are made again by the caller on every
    /// `.connected` (a persistent session keeps them at the broker meanwhile).
    public func subscribe(_ filter: String, qos: Int = 1) throws(MQTTError) {
        guard !filter.isEmpty, filter.utf8.count <= 65535 else { throw MQTTError("subscribe: the topic filter is empty or too long") }
        guard (0...2).contains(qos) else { throw MQTTError("subscribe \(filter): QoS must be 0, 1 or 2") }
        input.yield(.subscribe([.init(filter: filter, qos: UInt8(qos))]))
    }

    /// Queues `payload` for `topic`, in order with every other publish. `expiry` (seconds)
    /// becomes the MQTT 5 message expiry interval. Throws when the topic is not one a message
    /// can go to, or when ``MQTTOptions/outgoingLimit`` messages are already waiting.
    public func publish(_ topic: String, _ payload: [UInt8], qos: Int = 1, retain: Bool = false, expiry: UInt32? = nil) throws(MQTTError) {
        try send(message(topic, payload, qos: qos, retain: retain, expiry: expiry), waiter: nil)
    }

    /// Publishes and returns when the broker has the message (PUBACK for QoS 1, PUBCOMP for
    /// QoS 2; for QoS 0 when it is written).
    public func publishConfirmed(_ topic: String, _ payload: [UInt8], qos: Int = 1, retain: Bool = false, expiry: UInt32? = nil) async throws {
        let publish = try message(topic, payload, qos: qos, retain: retain, expiry: expiry)
        try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<Void, any Error>) in
            do { try send(publish, waiter: waiter) } catch { waiter.resume(throwing: error) }
        }
    }

    /// Acknowledges `message` (PUBACK for QoS 1, PUBREC for QoS 2), when the client was made with
    /// ``MQTTOptions/manualAcknowledgement``; otherwise nothing is owed and nothing happens.
    /// Acknowledgements leave in the order the messages arrived. A message from a connection
    /// since lost is not acknowledged: the broker sends it again.
    public func acknowledge(_ message: MQTTMessage) {
        if let token = message.acknowledgement { input.yield(.acknowledge(token)) }
    }

    private func message(_ topic: String, _ payload: [UInt8], qos: Int, retain: Bool, expiry: UInt32?) throws(MQTTError) -> MQTTPacket.Publish {
        try Self.validate(topic: topic, qos: qos)
        var publish = MQTTPacket.Publish(topic: topic, payload: payload, qos: UInt8(qos), retain: retain)
        if let expiry, options.protocolVersion == .v5 { publish.properties = [.fourBytes(MQTTProperty.messageExpiry, expiry)] }
        return publish
    }

    private func send(_ publish: MQTTPacket.Publish, waiter: CheckedContinuation<Void, any Error>?) throws(MQTTError) {
        guard queued.take() else {
            throw MQTTError("publish \(publish.topic): \(options.outgoingLimit) messages are already waiting for the broker", code: .queueFull)
        }
        if case .terminated = input.yield(.publish(MQTTOutgoing(publish: publish, waiter: waiter))) {
            queued.release(1)
            throw MQTTError("publish \(publish.topic): the client is stopped", code: .stopped)
        }
    }

    static func validate(topic: String, qos: Int) throws(MQTTError) {
        guard !topic.isEmpty, topic.utf8.count <= 65535, !topic.contains(where: { "+#\u{0}".contains($0) }) else {
            throw MQTTError("\(topic.debugDescription) is not a topic a message can be published to")
        }
        guard (0...2).contains(qos) else { throw MQTTError("publish \(topic): QoS must be 0, 1 or 2") }
    }

    /// The TLS context, with the files read now so a missing or unreadable one is said at once.
    static func context(_ tls: MQTTOptions.TLS) throws(MQTTError) -> NIOSSLContext {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.trustRoots = .file(tls.caFile)
        do {
            _ = try NIOSSLCertificate.fromPEMFile(tls.caFile)
            if let certificate = tls.certificateFile {
                configuration.certificateChain = try NIOSSLCertificate.fromPEMFile(certificate).map { .certificate($0) }
            }
            if let key = tls.keyFile {
                configuration.privateKey = .privateKey(try NIOSSLPrivateKey(file: key, format: .pem))
            }
            return try NIOSSLContext(configuration: configuration)
        } catch {
            throw MQTTError(
                "TLS files (ca \(tls.caFile), certificate \(tls.certificateFile ?? "none"), key \(tls.keyFile ?? "none")): \(error)", code: .tls)
        }
    }
}

/// Counts messages waiting for the broker, across the caller's threads and the session.
final class QueuedCount: Sendable {
    private let count = Mutex(0)
    let limit: Int
    init(limit: Int) { self.limit = limit }

    func take() -> Bool {
        count.withLock {
            if $0 >= limit { return false }; $0 += 1; return true
        }
    }
    func release(_ n: Int) { count.withLock { $0 = max(0, $0 - n) } }
}

/// Hands the session to the task that runs it (it is used there alone, once).
private struct SessionBox: @unchecked Sendable {
    let run: (AsyncStream<MQTTSessionInput>) async -> Void
    init<C>(_ session: MQTTSession<C>) { run = { await session.run($0) } }
}

import FoundationEssentials
import Glibc
import NIOCore

/// One client's MQTT session, run by one task over one input stream: connecting and
/// reconnecting with backoff, the handshake, keepalive, the flight window in both directions,
/// and acknowledgements left to the caller. Nothing here is shared: every change comes through
/// ``MQTTSessionInput`` in order, so the state needs no locks. The connection comes from a
/// ``MQTTTransport`` and every timer runs on `clock`, so the tests drive it packet by packet on
/// an in-memory channel and a clock of their own.
final class MQTTSession<C: Clock<Duration>> where C: Sendable {
    enum State { case connecting, awaitingConnack(since: C.Instant), connected, waiting, stopped }

    let options: MQTTOptions
    let level: MQTTProtocolLevel
    let transport: any MQTTTransport
    let clock: C
    let input: AsyncStream<MQTTSessionInput>.Continuation
    let events: AsyncStream<MQTTEvent>.Continuation
    let queued: QueuedCount

    var state = State.connecting
    var connection = 0
    var channel: (any Channel)?
    /// The session's own tasks, one of each at most; cancelled and awaited when it ends.
    var connecting: Task<Void, Never>?
    var ticker: Task<Void, Never>?
    var retry: Task<Void, Never>?
    var stopDeadline: Task<Void, Never>?
    var attempt = 0
    var refused = false
    /// Why this client is closing the connection, said when it has closed.
    var pendingReason: String?
    var out = ByteBuffer()
    var flushScheduled = false
    var lastSent: C.Instant
    var pingSent: C.Instant?
    /// Holds reading back while a window of messages waits for acknowledgement.
    var gate: MQTTReadGate?
    var keepAlive: Duration
    var sendQuota = 65_535
    /// Set once asked to stop: the callers to answer when stopped.
    var stopping: [CheckedContinuation<Void, Never>]?

    /// Waiting for the broker: queued (not yet sent), and sent but unacknowledged by packet id.
    var outbox = CircularBuffer<MQTTOutgoing>()
    var inflight: [UInt16: MQTTOutgoing] = [:]
    var inflightOrder: [UInt16] = []
    var nextPacketID: UInt16 = 1
    /// Received and owed an acknowledgement, in arrival order (acknowledgements leave in that order).
    var unacknowledged = UnacknowledgedMessages()
    /// QoS 2 messages acknowledged with PUBREC, until the broker releases them.
    var awaitingRelease: Set<UInt16> = []

    init(
        options: MQTTOptions, transport: any MQTTTransport, clock: C, input: AsyncStream<MQTTSessionInput>.Continuation,
        events: AsyncStream<MQTTEvent>.Continuation, queued: QueuedCount
    ) {
        self.options = options
        level = options.protocolVersion == .v5 ? .v5 : .v311
        self.transport = transport
        self.clock = clock
        self.input = input
        self.events = events
        self.queued = queued
        keepAlive = .seconds(options.keepAlive)
        lastSent = clock.now
    }

    func run(_ inputs: AsyncStream<MQTTSessionInput>) async {
        connect()
        for await item in inputs {
            handle(item)
            if case .stopped = state { break }
        }
        input.finish()
        events.finish()
        for task in [connecting, ticker, retry, stopDeadline].compactMap({ $0 }) {
            task.cancel()
            await task.value
        }
    }

    private func handle(_ item: MQTTSessionInput) {
        switch item {
        case .publish(let outgoing): enqueue(outgoing)
        case .subscribe(let filters):
            guard case .connected = state else { return }  // the caller subscribes again on .connected
            write(.subscribe(.init(packetID: allocatePacketID(), filters: filters)))
        case .acknowledge(let token): acknowledge(token)
        case .stop(let within, let done): stop(within: within, done: done)
        case .connected(let id, let channel): opened(id, channel)
        case .connectFailed(let id, let reason):
            guard id == connection else { return }
            events.yield(.connectFailed(reason: reason))
            retryLater()
        case .packet(let id, let packet, let received):
            guard id == connection else { return }
            do { try receive(packet, at: received) } catch { fail(error.description, code: error.code) }
        case .failed(let id, let reason, let code):
            guard id == connection else { return }
            fail(reason, code: code)
        case .closed(let id, let reason): closed(id, reason: reason)
        case .flush(let id):
            flushScheduled = false
            if id == connection { flush() }
        case .tick(let id): if id == connection { tick() }
        case .reconnect(let id): if id == connection, case .waiting = state { connect() }
        }
    }

    // MARK: Connecting

    private func connect() {
        connection += 1
        let id = connection
        state = .connecting
        refused = false
        let input = input
        let level = level
        let limit = options.maximumPacketSize
        let gate = MQTTReadGate(window: Int(options.receiveMaximum))
        self.gate = gate
        connecting = Task { [transport] in
            do {
                let channel = try await transport.connect { handlers in
                    try handlers.addHandler(ByteToMessageHandler(MQTTFrameDecoder(maximumPacketSize: limit, level: level)))
                    try handlers.addHandler(MQTTSessionHandler(connection: id, input: input, gate: gate))
                }
                // Stopped meanwhile: nothing will take the connection, so it is closed here.
                if case .terminated = input.yield(.connected(id, channel)) { try? await channel.close() }
            } catch {
                input.yield(.connectFailed(id, reason: MQTTSessionHandler.describe(error)))
            }
        }
    }

    private func opened(_ id: Int, _ channel: any Channel) {
        guard id == connection, case .connecting = state else {
            channel.close(promise: nil)
            return
        }
        self.channel = channel
        // The channel may have closed already: the handler's word of it can overtake this one
        // (another thread) and was then ignored. Its close future says so in any case, so a
        // dead channel is never waited on for ever.
        let closedInput = input
        channel.closeFuture.whenComplete { _ in closedInput.yield(.closed(id, reason: nil)) }
        state = .awaitingConnack(since: clock.now)
        keepAlive = .seconds(options.keepAlive)  // until this broker says otherwise
        var properties: [MQTTProperty] = [
            .twoBytes(MQTTProperty.receiveMaximum, options.receiveMaximum)
        ]
        if options.persistentSession { properties.append(.fourBytes(MQTTProperty.sessionExpiry, options.sessionExpiry)) }
        let will = options.will.map {
            MQTTPacket.Publish(topic: $0.topic, payload: $0.payload, qos: UInt8($0.qos), retain: $0.retain)
        }
        write(
            .connect(
                .init(
                    level: level, clientID: options.clientID, cleanStart: !options.persistentSession,
                    keepAlive: UInt16(options.keepAlive), username: options.username,
                    password: options.password.map { Array($0.utf8) }, will: will, properties: properties)))
        let input = input
        let period = Duration.milliseconds(max(250, min(options.keepAlive * 250, 5000)))
        ticker?.cancel()
        ticker = Task { [clock] in
            while (try? await clock.sleep(for: period)) != nil {
                input.yield(.tick(id))
            }
        }
    }

    func accepted(_ connack: MQTTPacket.Connack) {
        guard connack.code == 0 else {
            refused = true
            events.yield(.connected(code: Int(connack.code), sessionPresent: false))
            return
        }
        state = .connected
        attempt = 0
        sendQuota = Int(connack.properties.integer(MQTTProperty.receiveMaximum) ?? 65_535)
        if let seconds = connack.properties.integer(MQTTProperty.serverKeepAlive) { keepAlive = .seconds(Int(seconds)) }
        events.yield(.connected(code: 0, sessionPresent: connack.sessionPresent))
        resend(sessionPresent: connack.sessionPresent)
        drainOutbox()
    }

    /// Ends the connection because of `reason`, telling an MQTT 5 broker why when there is a code.
    func fail(_ reason: String, code: UInt8?) {
        guard let channel else { return }
        if level == .v5, let code, code != 0, case .connected = state { write(.disconnect(.init(code: code))) }
        flush()
        pendingReason = reason
        channel.close(promise: nil)
    }

    private func closed(_ id: Int, reason: String?) {
        guard id == connection, channel != nil else { return }
        channel = nil
        gate = nil
        ticker?.cancel()
        out.clear()
        pingSent = nil
        // The broker sends anything unacknowledged again on the next connection.
        unacknowledged.removeAll()
        let reason = pendingReason ?? reason
        pendingReason = nil
        switch state {
        case .connected:
            events.yield(.disconnected(reason: reason ?? "the broker closed the connection"))
        case .awaitingConnack, .connecting:
            if !refused { events.yield(.connectFailed(reason: reason ?? "the broker closed the connection before answering")) }
        case .waiting, .stopped:
            break
        }
        if stopping != nil, outbox.isEmpty, inflight.isEmpty { return finishStopping() }
        retryLater()
    }

    /// Waits 1, 2, 4 … 30 s (±25 %, so a fleet does not reconnect in step), then connects again.
    private func retryLater() {
        state = .waiting
        let delay = min(30.0, pow(2, Double(attempt))) * Double.random(in: 0.75...1.25)
        attempt += 1
        let id = connection
        let input = input
        retry = Task { [clock] in
            guard (try? await clock.sleep(for: .seconds(delay))) != nil else { return }
            input.yield(.reconnect(id))
        }
    }

    private func tick() {
        let now = clock.now
        switch state {
        case .awaitingConnack(let since) where since.duration(to: now) > .seconds(10):
            fail("the broker did not answer CONNECT within 10 s", code: nil)
        case .connected where keepAlive > .zero:
            if let pingSent, pingSent.duration(to: now) > keepAlive {
                fail("the broker did not answer a ping within \(keepAlive.components.seconds) s", code: 0x8D)
            } else if pingSent == nil, lastSent.duration(to: now) >= keepAlive {
                write(.pingreq)
                pingSent = now
            }
        default:
            break
        }
    }
}

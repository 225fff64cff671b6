import Foundation
import NIOCore
import NIOPosix
import NIOSSL

/// One client's MQTT session, run by one task over one input stream: connecting and
/// reconnecting with backoff, the handshake, keepalive, the flight window in both directions,
/// and acknowledgements left to the caller. Nothing here is shared: every change comes through
/// ``MQTTSessionInput`` in order, so the state needs no locks.
final class MQTTSession {
    enum State { case connecting, awaitingConnack(since: ContinuousClock.Instant), connected, waiting, stopped }

    let options: MQTTOptions
    let level: MQTTProtocolLevel
    let tls: NIOSSLContext?
    let input: AsyncStream<MQTTSessionInput>.Continuation
    let events: AsyncStream<MQTTEvent>.Continuation
    let queued: QueuedCount

    var state = State.connecting
    var connection = 0
    var channel: (any Channel)?
    var ticker: Task<Void, Never>?
    var attempt = 0
    var refused = false
    /// Why this client is closing the connection, said when it has closed.
    var pendingReason: String?
    var out = ByteBuffer()
    var flushScheduled = false
    var lastSent = ContinuousClock.now
    var pingSent: ContinuousClock.Instant?
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

    init(options: MQTTOptions, tls: NIOSSLContext?, input: AsyncStream<MQTTSessionInput>.Continuation,
         events: AsyncStream<MQTTEvent>.Continuation, queued: QueuedCount) {
        self.options = options
        level = options.protocolVersion == .v5 ? .v5 : .v311
        self.tls = tls
        self.input = input
        self.events = events
        self.queued = queued
        keepAlive = .seconds(options.keepAlive)
    }

    func run(_ inputs: AsyncStream<MQTTSessionInput>) async {
        connect()
        for await item in inputs {
            handle(item)
            if case .stopped = state { break }
        }
        ticker?.cancel()
        input.finish()
        events.finish()
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
        let tls = tls
        let input = input
        let level = level
        let limit = options.maximumPacketSize
        let host = options.host
        let port = options.port
        // An address is checked against the certificate's IP names; SNI takes names only.
        let serverName = Self.isAddress(host) ? nil : host
        let gate = MQTTReadGate(window: Int(options.receiveMaximum))
        self.gate = gate
        Task {
            let bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(.seconds(10))
                .channelOption(.tcpOption(.tcp_nodelay), value: 1)
                // Small reads, one per turn: the read gate can only hold back what is not yet read.
                // A 32 KiB read carried some 250 messages past the window (PUBACK p99 75 ms under
                // a burst); 4 KiB carries about 30 (p99 30–40 ms) at the same throughput.
                .channelOption(.recvAllocator, value: FixedSizeRecvByteBufferAllocator(capacity: 4096))
                .channelOption(.maxMessagesPerRead, value: 1)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let handlers = channel.pipeline.syncOperations
                        if let tls { try handlers.addHandler(try NIOSSLClientHandler(context: tls, serverHostname: serverName)) }
                        try handlers.addHandler(ByteToMessageHandler(MQTTFrameDecoder(maximumPacketSize: limit, level: level)))
                        try handlers.addHandler(MQTTSessionHandler(connection: id, input: input, gate: gate))
                    }
                }
            do {
                input.yield(.connected(id, try await bootstrap.connect(host: host, port: port).get()))
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
        state = .awaitingConnack(since: .now)
        keepAlive = .seconds(options.keepAlive)  // until this broker says otherwise
        var properties: [MQTTProperty] = [
            .twoBytes(MQTTProperty.receiveMaximum, options.receiveMaximum),
        ]
        if options.persistentSession { properties.append(.fourBytes(MQTTProperty.sessionExpiry, options.sessionExpiry)) }
        let will = options.will.map {
            MQTTPacket.Publish(topic: $0.topic, payload: $0.payload, qos: UInt8($0.qos), retain: $0.retain)
        }
        write(.connect(.init(level: level, clientID: options.clientID, cleanStart: !options.persistentSession,
                             keepAlive: UInt16(options.keepAlive), username: options.username,
                             password: options.password.map { Array($0.utf8) }, will: will, properties: properties)))
        let input = input
        let period = Duration.milliseconds(max(250, min(options.keepAlive * 250, 5000)))
        ticker = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: period)
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
        Task {
            try? await Task.sleep(for: .seconds(delay))
            input.yield(.reconnect(id))
        }
    }

    private func tick() {
        let now = ContinuousClock.now
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

    static func isAddress(_ host: String) -> Bool {
        (try? SocketAddress(ipAddress: host, port: 0)) != nil
    }
}

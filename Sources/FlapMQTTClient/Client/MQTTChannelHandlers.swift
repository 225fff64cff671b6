import NIOCore
import Synchronization

/// Cuts the byte stream into packets: reads the fixed header, refuses a remaining length that
/// is not a valid variable byte integer as soon as the header says so, and decodes each whole
/// packet. A PUBLISH over `maximumPacketSize` is not buffered: its head (topic, packet id,
/// properties) is read and passed on with an empty payload and the payload's size
/// (``MQTTPacket/Publish/oversized``), and the payload's bytes are skipped as they arrive, so
/// its sender can be told why it was refused and the broker gets its acknowledgement instead of
/// delivering it again for ever. Any other packet over the limit closes the connection.
final class MQTTFrameDecoder: ByteToMessageDecoder {
    typealias InboundOut = MQTTPacket

    let maximumPacketSize: Int
    let level: MQTTProtocolLevel
    /// Bytes of an oversized PUBLISH's payload still to skip.
    private var skipping = 0

    init(maximumPacketSize: Int, level: MQTTProtocolLevel) {
        self.maximumPacketSize = maximumPacketSize
        self.level = level
    }

    func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        if skipping > 0 {
            let skipped = min(skipping, buffer.readableBytes)
            buffer.moveReaderIndex(forwardBy: skipped)
            skipping -= skipped
            return skipping == 0 ? .continue : .needMoreData
        }
        let start = buffer.readerIndex
        guard let first = buffer.getInteger(at: start, as: UInt8.self) else { return .needMoreData }
        var length = 0
        var headerBytes = 1
        while true {
            guard let byte = buffer.getInteger(at: start + headerBytes, as: UInt8.self) else { return .needMoreData }
            length |= Int(byte & 0x7F) << (7 * (headerBytes - 1))
            headerBytes += 1
            if byte & 0x80 == 0 { break }
            if headerBytes == 5 {
                throw MQTTProtocolError.malformed("a packet's remaining length runs past four bytes (first byte 0x\(String(first, radix: 16)))")
            }
        }
        let total = headerBytes + length
        guard total <= maximumPacketSize else {
            guard first >> 4 == 3 else {
                throw MQTTProtocolError.tooLarge("a packet of \(total) bytes is over this client's maximum of \(maximumPacketSize)")
            }
            return try oversizedPublish(context: context, buffer: &buffer, first: first, headerBytes: headerBytes, length: length)
        }
        guard buffer.readableBytes >= total else { return .needMoreData }
        buffer.moveReaderIndex(forwardBy: headerBytes)
        guard let body = buffer.readSlice(length: length) else { throw MQTTProtocolError.malformed("a packet shorter than its length") }
        context.fireChannelRead(wrapInboundOut(try MQTTPacket.decode(first: first, body: body, level: level)))
        return .continue
    }

    /// Passes on an oversized PUBLISH's head once it is here, and skips its payload from then on.
    private func oversizedPublish(
        context: ChannelHandlerContext, buffer: inout ByteBuffer, first: UInt8,
        headerBytes: Int, length: Int
    ) throws -> DecodingState {
        let bodyStart = buffer.readerIndex + headerBytes
        var head = 0
        func need(_ count: Int) throws -> Bool {
            guard head + count <= length else { throw MQTTProtocolError.malformed("PUBLISH whose head runs past its end") }
            guard head + count <= maximumPacketSize else {
                throw MQTTProtocolError.tooLarge("a PUBLISH whose topic and properties alone are over this client's maximum of \(maximumPacketSize)")
            }
            return buffer.readableBytes >= headerBytes + head + count
        }
        guard try need(2), let topicLength = buffer.getInteger(at: bodyStart, as: UInt16.self) else { return .needMoreData }
        head += 2 + Int(topicLength)
        if (first >> 1) & 3 > 0 { head += 2 }
        if level == .v5 {
            var propertiesLength = 0
            var lengthBytes = 0
            repeat {
                guard lengthBytes < 4 else { throw MQTTProtocolError.malformed("PUBLISH whose properties' length runs past four bytes") }
                guard try need(lengthBytes + 1), let byte = buffer.getInteger(at: bodyStart + head + lengthBytes, as: UInt8.self) else {
                    return .needMoreData
                }
                propertiesLength |= Int(byte & 0x7F) << (7 * lengthBytes)
                lengthBytes += 1
                if byte & 0x80 == 0 { break }
            } while true
            head += lengthBytes + propertiesLength
        }
        guard try need(0) else { return .needMoreData }
        buffer.moveReaderIndex(forwardBy: headerBytes)
        guard let headBytes = buffer.readSlice(length: head) else { throw MQTTProtocolError.malformed("a packet shorter than its length") }
        guard case .publish(var publish) = try MQTTPacket.decode(first: first, body: headBytes, level: level) else { return .continue }
        publish.oversized = length - head
        skipping = length - head
        context.fireChannelRead(wrapInboundOut(.publish(publish)))
        return .continue
    }

    func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        while try decode(context: context, buffer: &buffer) == .continue {}
        return .needMoreData
    }
}

/// Hands what the channel brings (packets, the first error, the end) to the session, tagged
/// with the connection it belongs to, and stops reading while a window of messages waits for
/// acknowledgement (``MQTTReadGate``).
final class MQTTSessionHandler: ChannelDuplexHandler {
    typealias InboundIn = MQTTPacket
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    let connection: Int
    let input: AsyncStream<MQTTSessionInput>.Continuation
    let gate: MQTTReadGate
    private var failure: String?

    init(connection: Int, input: AsyncStream<MQTTSessionInput>.Continuation, gate: MQTTReadGate) {
        self.connection = connection
        self.input = input
        self.gate = gate
    }

    func handlerAdded(context: ChannelHandlerContext) {
        gate.attach(context.channel)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let packet = unwrapInboundIn(data)
        if case .publish(let publish) = packet, publish.qos > 0 { gate.received() }
        input.yield(.packet(connection, packet, received: .now))
    }

    func read(context: ChannelHandlerContext) {
        if gate.mayRead() { context.read() }
    }

    /// Acknowledges received data at once instead of after the kernel's delayed-ACK timer.
    /// Brokers send with Nagle's algorithm by default (mosquitto's `set_tcp_nodelay false`): the
    /// next PUBLISH then waits for our ACK of the last packet, which a delayed ACK holds back for
    /// up to 40 ms. Linux leaves quick-ACK mode by itself, so it is set after every read.
    func channelReadComplete(context: ChannelHandlerContext) {
        try? context.channel.syncOptions?.setOption(ChannelOptions.tcpOption(.init(rawValue: Self.quickAck)), value: 1)
        context.fireChannelReadComplete()
    }

    /// Linux's TCP_QUICKACK.
    static let quickAck: CInt = 12

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard failure == nil else { return }
        let reason = (error as? MQTTProtocolError).map { "\($0)" } ?? Self.describe(error)
        failure = reason
        input.yield(.failed(connection, reason: reason, code: (error as? MQTTProtocolError)?.code))
    }

    func channelInactive(context: ChannelHandlerContext) {
        input.yield(.closed(connection, reason: failure))
        context.fireChannelInactive()
    }

    static func describe(_ error: any Error) -> String {
        let text = String(describing: error)
        if text.contains("CERTIFICATE_VERIFY_FAILED") { return "TLS: the broker's certificate is not signed by the configured CA (\(text))" }
        return text
    }
}

/// The client's own flow control: how many received messages wait for acknowledgement, and
/// whether reading is held back because a window of them does. A broker may send past the
/// Receive Maximum (mosquitto 2.0.11 sent thousands at once under a burst); held back, the rest
/// wait at the broker (or in the socket), not in flapd's memory, and acknowledgements do not
/// queue behind them.
final class MQTTReadGate: Sendable {
    private struct State {
        var waiting = 0
        var held = false
        var channel: (any Channel)?
    }
    private let state = Mutex(State())
    let window: Int

    init(window: Int) { self.window = max(1, window) }

    func attach(_ channel: any Channel) { state.withLock { $0.channel = channel } }

    func received() { state.withLock { $0.waiting += 1 } }

    /// Whether the channel may read now; if not, reading resumes when half the window is acknowledged.
    func mayRead() -> Bool {
        state.withLock { s in
            s.held = s.waiting >= window
            return !s.held
        }
    }

    func acknowledged(_ n: Int) {
        let resume: (any Channel)? = state.withLock { s in
            s.waiting = max(0, s.waiting - n)
            guard s.held, s.waiting <= window / 2 else { return nil }
            s.held = false
            return s.channel
        }
        resume?.read()
    }
}

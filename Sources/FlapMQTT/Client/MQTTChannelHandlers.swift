import NIOCore

/// Cuts the byte stream into packets: reads the fixed header, refuses a remaining length that
/// is not a valid variable byte integer or a packet over `maximumPacketSize` as soon as the
/// header says so (before buffering it), and decodes each whole packet.
final class MQTTFrameDecoder: ByteToMessageDecoder {
    typealias InboundOut = MQTTPacket

    let maximumPacketSize: Int
    let level: MQTTProtocolLevel

    init(maximumPacketSize: Int, level: MQTTProtocolLevel) {
        self.maximumPacketSize = maximumPacketSize
        self.level = level
    }

    func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
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
            throw MQTTProtocolError.tooLarge("a packet of \(total) bytes is over this client's maximum of \(maximumPacketSize)")
        }
        guard buffer.readableBytes >= total else { return .needMoreData }
        buffer.moveReaderIndex(forwardBy: headerBytes)
        let body = buffer.readSlice(length: length)!
        context.fireChannelRead(wrapInboundOut(try MQTTPacket.decode(first: first, body: body, level: level)))
        return .continue
    }

    func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        while try decode(context: context, buffer: &buffer) == .continue {}
        return .needMoreData
    }
}

/// Hands what the channel brings (packets, the first error, the end) to the session, tagged
/// with the connection it belongs to.
final class MQTTSessionHandler: ChannelInboundHandler {
    typealias InboundIn = MQTTPacket

    let connection: Int
    let input: AsyncStream<MQTTSessionInput>.Continuation
    private var failure: String?

    init(connection: Int, input: AsyncStream<MQTTSessionInput>.Continuation) {
        self.connection = connection
        self.input = input
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        input.yield(.packet(connection, unwrapInboundIn(data), received: .now))
    }

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

import NIOCore
import NIOEmbedded
import Synchronization
import TestSupport
import Testing

@testable import FlapMQTTClient

/// A broker the test plays by hand: every connection the session opens is an in-memory channel
/// (NIOAsyncTestingChannel) with the session's real handlers, handed to the test as a
/// ``PlayedConnection`` to read what the client wrote and write the broker's answers.
final class PlayedBroker: MQTTTransport {
    let level: MQTTProtocolLevel
    /// Connections opened and not yet accepted, or the test waiting for the next one.
    private let queue = Mutex<(opened: [PlayedConnection], accepting: CheckedContinuation<PlayedConnection, Never>?)>(([], nil))

    init(level: MQTTProtocolLevel = .v5) { self.level = level }

    func connect(install: @escaping @Sendable (ChannelPipeline.SynchronousOperations) throws -> Void) async throws -> any Channel {
        let channel = NIOAsyncTestingChannel()
        try await channel.testingEventLoop.executeInContext { try install(channel.pipeline.syncOperations) }
        try await channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1883))
        let connection = PlayedConnection(channel: channel, level: level)
        let accepting = queue.withLock { queue in
            guard let accepting = queue.accepting else {
                queue.opened.append(connection)
                return nil as CheckedContinuation<PlayedConnection, Never>?
            }
            queue.accepting = nil
            return accepting
        }
        accepting?.resume(returning: connection)
        return channel
    }

    /// The next connection the client opens.
    func accept() async -> PlayedConnection {
        await withCheckedContinuation { continuation in
            let ready = queue.withLock { queue in
                guard !queue.opened.isEmpty else {
                    queue.accepting = continuation
                    return nil as PlayedConnection?
                }
                return queue.opened.removeFirst()
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}

/// What a client sends, as the broker reads it: CONNECT, SUBSCRIBE and PINGREQ by their
/// fields (the client's decoder reads only what a broker sends), everything else decoded.
enum ClientPacket: Equatable {
    case connect(cleanStart: Bool, keepAlive: UInt16)
    case subscribe(packetID: UInt16)
    case pingreq
    case other(MQTTPacket)
}

/// One connection of the played broker.
final class PlayedConnection: Sendable {
    let channel: NIOAsyncTestingChannel
    let level: MQTTProtocolLevel
    /// Bytes written by the client and not yet read as whole packets.
    private let pending = Mutex(ByteBuffer())

    init(channel: NIOAsyncTestingChannel, level: MQTTProtocolLevel) {
        self.channel = channel
        self.level = level
    }

    /// The client's next packet, waiting until it writes one.
    func next() async throws -> ClientPacket {
        while true {
            if let packet = try pending.withLock({ try Self.take(from: &$0, level: level) }) { return packet }
            var written = try await channel.waitForOutboundWrite(as: ByteBuffer.self)
            pending.withLock { $0.writeBuffer(&written) }
        }
    }

    /// The client's next packet, which must be `expected`.
    func expect(_ expected: ClientPacket, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let packet = try await next()
        #expect(packet == expected, sourceLocation: sourceLocation)
    }

    /// Writes the broker's `packets` to the client, in one read.
    func send(_ packets: MQTTPacket...) async throws {
        var bytes = ByteBuffer()
        for packet in packets { packet.encode(into: &bytes, level: level) }
        try await channel.writeInbound(bytes)
    }

    /// The broker ends the connection.
    func drop() async throws { try await channel.close() }

    /// Waits until the client has closed the connection.
    func closed() async throws { try await channel.closeFuture.get() }

    private static func take(from buffer: inout ByteBuffer, level: MQTTProtocolLevel) throws -> ClientPacket? {
        let start = buffer.readerIndex
        guard let first = buffer.getInteger(at: start, as: UInt8.self) else { return nil }
        var length = 0
        var header = 1
        while true {
            guard let byte = buffer.getInteger(at: start + header, as: UInt8.self) else { return nil }
            length |= Int(byte & 0x7F) << (7 * (header - 1))
            header += 1
            if byte & 0x80 == 0 { break }
        }
        guard buffer.readableBytes >= header + length else { return nil }
        buffer.moveReaderIndex(forwardBy: header)
        var body = buffer.readSlice(length: length)!
        buffer.discardReadBytes()
        switch first >> 4 {
        case 1:
            _ = body.readBytes(length: 2 + 4 + 1)  // "MQTT" and the protocol level
            let flags = body.readInteger(as: UInt8.self)!
            return .connect(cleanStart: flags & 2 != 0, keepAlive: body.readInteger(as: UInt16.self)!)
        case 8: return .subscribe(packetID: body.readInteger(as: UInt16.self)!)
        case 12: return .pingreq
        default: return .other(try MQTTPacket.decode(first: first, body: body, level: level))
        }
    }
}

extension MQTTPacket {
    /// A PUBLISH as a broker sends it.
    static func message(_ topic: String, _ text: String, qos: UInt8, id: UInt16? = nil, duplicate: Bool = false) -> MQTTPacket {
        .publish(.init(topic: topic, payload: Array(text.utf8), qos: qos, retain: false, duplicate: duplicate, packetID: id))
    }
}

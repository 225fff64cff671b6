import NIOCore
import NIOEmbedded
import Testing

@testable import FlapMQTTClient

/// The packet codec, byte for byte against MQTT 3.1.1 and 5 as the specifications lay them out.
@Suite struct MQTTPacketTests {
    func bytes(_ packet: MQTTPacket, _ level: MQTTProtocolLevel) -> [UInt8] {
        var buffer = ByteBuffer()
        packet.encode(into: &buffer, level: level)
        return Array(buffer.readableBytesView)
    }

    @Test func connectCarriesEveryFieldInOrder() {
        let will = MQTTPacket.Publish(topic: "w", payload: [0x6F], qos: 1, retain: true)
        let connect = MQTTPacket.connect(
            .init(
                level: .v5, clientID: "c", cleanStart: false, keepAlive: 30, username: "u",
                password: [0x70], will: will, properties: [.fourBytes(MQTTProperty.sessionExpiry, 604_800)]))
        #expect(
            bytes(connect, .v5) == [
                0x10, 32,  // CONNECT, remaining length
                0, 4, 0x4D, 0x51, 0x54, 0x54, 5,  // "MQTT", level 5
                0b1110_1100, 0, 30,  // username, password, will retain, will QoS 1, will; keepalive 30
                5, 0x11, 0x00, 0x09, 0x3A, 0x80,  // properties: session expiry 604800
                0, 1, 0x63,  // client id "c"
                0,  // will properties
                0, 1, 0x77, 0, 1, 0x6F,  // will topic "w", payload "o"
                0, 1, 0x75, 0, 1, 0x70  // username "u", password "p"
            ])
        // 3.1.1 has no properties anywhere.
        let old = MQTTPacket.connect(.init(level: .v311, clientID: "c", cleanStart: true, keepAlive: 5))
        #expect(bytes(old, .v311) == [0x10, 13, 0, 4, 0x4D, 0x51, 0x54, 0x54, 4, 0x02, 0, 5, 0, 1, 0x63])
    }

    @Test func acknowledgementsTakeTheShortFormWhenTheySayNothingMore() {
        #expect(bytes(.puback(.init(packetID: 0x1234)), .v5) == [0x40, 2, 0x12, 0x34])
        #expect(bytes(.pubrel(.init(packetID: 7)), .v311) == [0x62, 2, 0, 7])
        #expect(bytes(.pubcomp(.init(packetID: 7, code: 0x92)), .v5) == [0x70, 3, 0, 7, 0x92])
        #expect(bytes(.disconnect(.init(code: 0x81)), .v5) == [0xE0, 2, 0x81, 0])
    }

    @Test func aPublishRoundTripsWithItsProperties() throws {
        let publish = MQTTPacket.Publish(
            topic: "a/b", payload: Array("hi".utf8), qos: 2, retain: true, duplicate: true,
            packetID: 9, properties: [.fourBytes(MQTTProperty.messageExpiry, 60)])
        var buffer = ByteBuffer()
        MQTTPacket.publish(publish).encode(into: &buffer, level: .v5)
        let first = buffer.readInteger(as: UInt8.self)!
        #expect(first == 0x3D)  // PUBLISH, DUP, QoS 2, retain
        let length = buffer.readInteger(as: UInt8.self)!
        #expect(Int(length) == buffer.readableBytes)
        #expect(try MQTTPacket.decode(first: first, body: buffer, level: .v5) == .publish(publish))
    }

    @Test func aThreePointOneConnackAnswersAFiveConnect() throws {
        // A 3.1.1 broker refusing level 5: return code 1 with no properties.
        #expect(try MQTTPacket.decode(first: 0x20, body: ByteBuffer(bytes: [0, 1]), level: .v5) == .connack(.init(sessionPresent: false, code: 1)))
    }

    @Test func whatIsWrongIsSaid() {
        func error(_ first: UInt8, _ body: [UInt8], _ level: MQTTProtocolLevel = .v5) -> String? {
            do { _ = try MQTTPacket.decode(first: first, body: ByteBuffer(bytes: body), level: level); return nil } catch { return error.description }
        }
        #expect(error(0x30, [0, 2, 0xC3, 0x28, 0]) == "PUBLISH topic is not UTF-8")
        #expect(error(0x30, [0, 1, 0x74, 50, 1, 1]) == "PUBLISH is truncated in its properties (50 bytes announced, 2 left)")
        #expect(error(0x32, [0, 1, 0x74, 0, 0, 0]) == "PUBLISH with packet identifier 0")
        #expect(error(0x36, [0, 1, 0x74]) == "PUBLISH with QoS 3")
        #expect(error(0x30, [0, 1, 0x74, 3, 0x7E, 0, 0]) == "PUBLISH has unknown property 0x7e")
        #expect(error(0x60, [0, 1]) == "PUBREL with flags 0 (must be 2)")
        #expect(error(0x40, [0]) == "PUBACK is truncated in its packet identifier")
        #expect(error(0x10, []) == "packet type 1, which a broker does not send to a client")
    }

    @Test func theFramerRefusesABadLengthAndAnOversizedPacketFromItsHeader() throws {
        func frame(_ data: [UInt8]) throws -> [MQTTPacket] {
            let channel = EmbeddedChannel(handler: ByteToMessageHandler(MQTTFrameDecoder(maximumPacketSize: 1024, level: .v5)))
            try channel.writeInbound(ByteBuffer(bytes: data))
            var packets: [MQTTPacket] = []
            while let packet = try channel.readInbound(as: MQTTPacket.self) { packets.append(packet) }
            return packets
        }
        // Two packets in one read, the second split over nothing: both come out.
        #expect(try frame([0xD0, 0, 0x40, 2, 0, 5]) == [.pingresp, .puback(.init(packetID: 5))])
        #expect(throws: MQTTProtocolError.self) { try frame([0x30, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]) }
        #expect(throws: MQTTProtocolError.tooLarge("a packet of 2003 bytes is over this client's maximum of 1024")) {
            try frame([0x90, 0xD0, 0x0F])  // a SUBACK announcing 2000 bytes; nothing more needs to arrive
        }
    }

    @Test func anOversizedPublishComesOutWithItsHeadAndSizeAndItsPayloadIsSkipped() throws {
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(MQTTFrameDecoder(maximumPacketSize: 1024, level: .v5)))
        // QoS 1, topic "t/m", packet 7, no properties, 300 000 bytes of payload, then a PINGRESP.
        var packet = ByteBuffer()
        MQTTPacket.publish(.init(topic: "t/m", payload: Array(repeating: 0x41, count: 300_000), qos: 1, retain: false, packetID: 7))
            .encode(into: &packet, level: .v5)
        packet.writeBytes([0xD0, 0])
        // Arriving in 4 KiB reads, as flapd reads: never more than one read is held.
        while packet.readableBytes > 0 {
            try channel.writeInbound(packet.readSlice(length: min(4096, packet.readableBytes))!)
        }
        let first = try #require(try channel.readInbound(as: MQTTPacket.self))
        guard case .publish(let publish) = first else { Issue.record("\(first)"); return }
        #expect(publish.topic == "t/m" && publish.packetID == 7 && publish.payload.isEmpty && publish.oversized == 300_000)
        #expect(try channel.readInbound(as: MQTTPacket.self) == .pingresp)
        #expect(try channel.readInbound(as: MQTTPacket.self) == nil)
    }
}

import NIOCore

extension MQTTPacket {
    /// Reads the packet of type and flags `first` whose body (after the fixed header) is
    /// `body`, as a client receives it from a broker speaking `level`. Throws what is wrong.
    static func decode(first: UInt8, body: ByteBuffer, level: MQTTProtocolLevel) throws(MQTTProtocolError) -> MQTTPacket {
        var r = MQTTReader(buffer: body, level: level)
        let flags = first & 0x0F
        let packet: MQTTPacket
        switch first >> 4 {
        case 2:
            r.packet = "CONNACK"
            let ack = try r.byte("acknowledge flags")
            let code = try r.byte("return code")
            // A 3.1.1 broker answers a v5 CONNECT with the two-byte 3.1.1 CONNACK.
            let properties = level == .v5 && r.remaining > 0 ? try r.properties() : []
            packet = .connack(.init(sessionPresent: ack & 1 == 1, code: code, properties: properties))
        case 3:
            r.packet = "PUBLISH"
            let qos = (flags >> 1) & 3
            guard qos < 3 else { throw .malformed("PUBLISH with QoS 3") }
            let topic = try r.string("topic")
            guard !topic.isEmpty || level == .v5 else { throw .malformed("PUBLISH with an empty topic") }
            let id = qos > 0 ? try r.packetID() : nil
            let properties = try r.propertiesIfV5()
            packet = .publish(
                .init(
                    topic: topic, payload: r.rest(), qos: qos, retain: flags & 1 == 1,
                    duplicate: flags & 8 == 8, packetID: id, properties: properties))
        case 4: packet = .puback(try r.acknowledgement("PUBACK"))
        case 5: packet = .pubrec(try r.acknowledgement("PUBREC"))
        case 6:
            guard flags == 2 else { throw .malformed("PUBREL with flags \(flags) (must be 2)") }
            packet = .pubrel(try r.acknowledgement("PUBREL"))
        case 7: packet = .pubcomp(try r.acknowledgement("PUBCOMP"))
        case 9:
            r.packet = "SUBACK"
            let id = try r.packetID()
            let properties = try r.propertiesIfV5()
            packet = .suback(.init(packetID: id, codes: r.rest(), properties: properties))
        case 11:
            // UNSUBACK: this client never unsubscribes.
            throw .violation("UNSUBACK for an UNSUBSCRIBE never sent")
        case 13:
            packet = .pingresp
        case 14:
            r.packet = "DISCONNECT"
            let code = r.remaining > 0 ? try r.byte("reason code") : 0
            let properties = level == .v5 && r.remaining > 0 ? try r.properties() : []
            packet = .disconnect(.init(code: code, properties: properties))
        case let type:
            throw .violation("packet type \(type), which a broker does not send to a client")
        }
        guard r.remaining == 0 || first >> 4 == 3 else {
            throw .malformed("\(packet.typeName) has \(r.remaining) bytes beyond its end")
        }
        return packet
    }
}

/// Reads MQTT's data types from a packet body; every shortfall says what was being read.
struct MQTTReader {
    var buffer: ByteBuffer
    let level: MQTTProtocolLevel
    var packet = "packet"

    init(buffer: ByteBuffer, level: MQTTProtocolLevel) {
        self.buffer = buffer
        self.level = level
    }

    var remaining: Int { buffer.readableBytes }

    mutating func byte(_ what: String) throws(MQTTProtocolError) -> UInt8 {
        guard let v = buffer.readInteger(as: UInt8.self) else { throw .malformed("\(packet) is truncated in its \(what)") }
        return v
    }

    mutating func twoBytes(_ what: String) throws(MQTTProtocolError) -> UInt16 {
        guard let v = buffer.readInteger(as: UInt16.self) else { throw .malformed("\(packet) is truncated in its \(what)") }
        return v
    }

    mutating func fourBytes(_ what: String) throws(MQTTProtocolError) -> UInt32 {
        guard let v = buffer.readInteger(as: UInt32.self) else { throw .malformed("\(packet) is truncated in its \(what)") }
        return v
    }

    mutating func packetID() throws(MQTTProtocolError) -> UInt16 {
        let id = try twoBytes("packet identifier")
        guard id != 0 else { throw .malformed("\(packet) with packet identifier 0") }
        return id
    }

    mutating func variableInteger(_ what: String) throws(MQTTProtocolError) -> UInt32 {
        var value: UInt32 = 0
        for i in 0..<4 {
            let b = try byte(what)
            value |= UInt32(b & 0x7F) << (7 * i)
            if b & 0x80 == 0 { return value }
        }
        throw .malformed("\(packet) has a \(what) longer than four bytes")
    }

    mutating func binary(_ what: String) throws(MQTTProtocolError) -> [UInt8] {
        let length = Int(try twoBytes("\(what) length"))
        guard let bytes = buffer.readBytes(length: length) else {
            throw .malformed("\(packet) is truncated in its \(what) (\(length) bytes announced, \(remaining) left)")
        }
        return bytes
    }

    mutating func string(_ what: String) throws(MQTTProtocolError) -> String {
        let bytes = try binary(what)
        guard let text = String(validating: bytes, as: UTF8.self) else { throw .malformed("\(packet) \(what) is not UTF-8") }
        // MQTT forbids the null character and UTF-16 surrogates (these cannot decode as UTF-8).
        guard !text.unicodeScalars.contains("\u{0}") else { throw .malformed("\(packet) \(what) contains U+0000") }
        return text
    }

    mutating func rest() -> [UInt8] { buffer.readBytes(length: remaining) ?? [] }

    mutating func propertiesIfV5() throws(MQTTProtocolError) -> [MQTTProperty] {
        level == .v5 ? try properties() : []
    }

    mutating func properties() throws(MQTTProtocolError) -> [MQTTProperty] {
        let length = Int(try variableInteger("property length"))
        guard let block = buffer.readSlice(length: length) else {
            throw .malformed("\(packet) is truncated in its properties (\(length) bytes announced, \(remaining) left)")
        }
        var inner = MQTTReader(buffer: block, level: level)
        inner.packet = packet
        var properties: [MQTTProperty] = []
        while inner.remaining > 0 {
            let id = try inner.variableInteger("property identifier")
            guard id < 256, let kind = MQTTProperty.kinds[UInt8(id)] else {
                throw .malformed("\(packet) has unknown property 0x\(String(id, radix: 16))")
            }
            let what = "property 0x\(String(id, radix: 16))"
            let value: MQTTProperty.Value
            switch kind {
            case .byte: value = .byte(try inner.byte(what))
            case .twoBytes: value = .twoBytes(try inner.twoBytes(what))
            case .fourBytes: value = .fourBytes(try inner.fourBytes(what))
            case .variableInteger: value = .variableInteger(try inner.variableInteger(what))
            case .string: value = .string(try inner.string(what))
            case .binary: value = .binary(try inner.binary(what))
            case .pair: value = .pair(try inner.string(what), try inner.string(what))
            }
            properties.append(MQTTProperty(id: UInt8(id), value: value))
        }
        return properties
    }

    mutating func acknowledgement(_ name: String) throws(MQTTProtocolError) -> MQTTPacket.Acknowledgement {
        packet = name
        let id = try packetID()
        guard level == .v5, remaining > 0 else { return .init(packetID: id) }
        let code = try byte("reason code")
        return .init(packetID: id, code: code, properties: remaining > 0 ? try properties() : [])
    }
}

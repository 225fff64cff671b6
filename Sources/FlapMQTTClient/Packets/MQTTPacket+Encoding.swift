import NIOCore

extension MQTTPacket {
    /// Appends this packet, fixed header first, to `out`. `level` decides whether properties
    /// and reason codes are written (MQTT 5) or left out (3.1.1).
    func encode(into out: inout ByteBuffer, level: MQTTProtocolLevel) {
        var body = ByteBuffer()
        let v5 = level == .v5
        let first: UInt8
        switch self {
        case .connect(let c):
            first = 0x10
            body.writeMQTTString("MQTT")
            body.writeInteger(c.level.rawValue)
            var flags: UInt8 = c.cleanStart ? 0x02 : 0
            if let will = c.will { flags |= 0x04 | (will.qos << 3) | (will.retain ? 0x20 : 0) }
            if c.password != nil { flags |= 0x40 }
            if c.username != nil { flags |= 0x80 }
            body.writeInteger(flags)
            body.writeInteger(c.keepAlive)
            if v5 { body.writeMQTTProperties(c.properties) }
            body.writeMQTTString(c.clientID)
            if let will = c.will {
                if v5 { body.writeMQTTProperties(will.properties) }
                body.writeMQTTString(will.topic)
                body.writeMQTTBinary(will.payload)
            }
            if let username = c.username { body.writeMQTTString(username) }
            if let password = c.password { body.writeMQTTBinary(password) }
        case .connack(let c):
            first = 0x20
            body.writeInteger(UInt8(c.sessionPresent ? 1 : 0))
            body.writeInteger(c.code)
            if v5 { body.writeMQTTProperties(c.properties) }
        case .publish(let p):
            first = 0x30 | (p.duplicate ? 0x08 : 0) | (p.qos << 1) | (p.retain ? 0x01 : 0)
            body.writeMQTTString(p.topic)
            if let id = p.packetID { body.writeInteger(id) }
            if v5 { body.writeMQTTProperties(p.properties) }
            body.writeBytes(p.payload)
        case .puback(let a): first = 0x40; Self.write(a, into: &body, v5: v5)
        case .pubrec(let a): first = 0x50; Self.write(a, into: &body, v5: v5)
        case .pubrel(let a): first = 0x62; Self.write(a, into: &body, v5: v5)
        case .pubcomp(let a): first = 0x70; Self.write(a, into: &body, v5: v5)
        case .subscribe(let s):
            first = 0x82
            body.writeInteger(s.packetID)
            if v5 { body.writeMQTTProperties(s.properties) }
            for filter in s.filters {
                body.writeMQTTString(filter.filter)
                body.writeInteger(filter.qos)
            }
        case .suback(let s):
            first = 0x90
            body.writeInteger(s.packetID)
            if v5 { body.writeMQTTProperties(s.properties) }
            body.writeBytes(s.codes)
        case .pingreq: first = 0xC0
        case .pingresp: first = 0xD0
        case .disconnect(let d):
            first = 0xE0
            if v5, d.code != 0 || !d.properties.isEmpty {
                body.writeInteger(d.code)
                body.writeMQTTProperties(d.properties)
            }
        }
        out.writeInteger(first)
        out.writeMQTTVariableInteger(UInt32(body.readableBytes))
        out.writeImmutableBuffer(body)
    }

    /// The short form (packet id alone) when it says all: success and no properties.
    private static func write(_ a: Acknowledgement, into body: inout ByteBuffer, v5: Bool) {
        body.writeInteger(a.packetID)
        guard v5, a.code != 0 || !a.properties.isEmpty else { return }
        body.writeInteger(a.code)
        if !a.properties.isEmpty { body.writeMQTTProperties(a.properties) }
    }
}

extension ByteBuffer {
    mutating func writeMQTTVariableInteger(_ value: UInt32) {
        var remaining = value
        repeat {
            var byte = UInt8(remaining & 0x7F)
            remaining >>= 7
            if remaining > 0 { byte |= 0x80 }
            writeInteger(byte)
        } while remaining > 0
    }

    mutating func writeMQTTString(_ string: String) {
        writeInteger(UInt16(string.utf8.count))
        writeString(string)
    }

    mutating func writeMQTTBinary(_ bytes: [UInt8]) {
        writeInteger(UInt16(bytes.count))
        writeBytes(bytes)
    }

    mutating func writeMQTTProperties(_ properties: [MQTTProperty]) {
        var block = ByteBuffer()
        for property in properties {
            block.writeMQTTVariableInteger(UInt32(property.id))
            switch property.value {
            case .byte(let v): block.writeInteger(v)
            case .twoBytes(let v): block.writeInteger(v)
            case .fourBytes(let v): block.writeInteger(v)
            case .variableInteger(let v): block.writeMQTTVariableInteger(v)
            case .string(let s): block.writeMQTTString(s)
            case .binary(let b): block.writeMQTTBinary(b)
            case .pair(let k, let v): block.writeMQTTString(k); block.writeMQTTString(v)
            }
        }
        writeMQTTVariableInteger(UInt32(block.readableBytes))
        writeImmutableBuffer(block)
    }
}

/// An MQTT 5 property: its identifier and a value of the type the identifier fixes.
struct MQTTProperty: Equatable, Sendable {
    var id: UInt8
    var value: Value

    enum Value: Equatable, Sendable {
        case byte(UInt8)
        case twoBytes(UInt16)
        case fourBytes(UInt32)
        case variableInteger(UInt32)
        case string(String)
        case binary([UInt8])
        case pair(String, String)
    }

    enum Kind { case byte, twoBytes, fourBytes, variableInteger, string, binary, pair }

    static let payloadFormat: UInt8 = 0x01
    static let messageExpiry: UInt8 = 0x02
    static let sessionExpiry: UInt8 = 0x11
    static let assignedClientID: UInt8 = 0x12
    static let serverKeepAlive: UInt8 = 0x13
    static let reasonString: UInt8 = 0x1F
    static let receiveMaximum: UInt8 = 0x21
    static let topicAliasMaximum: UInt8 = 0x22
    static let topicAlias: UInt8 = 0x23
    static let maximumQoS: UInt8 = 0x24
    static let maximumPacketSize: UInt8 = 0x27

    /// The value type of every property identifier MQTT 5 defines (section 2.2.2.2).
    static let kinds: [UInt8: Kind] = [
        0x01: .byte, 0x02: .fourBytes, 0x03: .string, 0x08: .string, 0x09: .binary, 0x0B: .variableInteger,
        0x11: .fourBytes, 0x12: .string, 0x13: .twoBytes, 0x15: .string, 0x16: .binary, 0x17: .byte,
        0x18: .fourBytes, 0x19: .byte, 0x1A: .string, 0x1C: .string, 0x1F: .string, 0x21: .twoBytes,
        0x22: .twoBytes, 0x23: .twoBytes, 0x24: .byte, 0x25: .byte, 0x26: .pair, 0x27: .fourBytes,
        0x28: .byte, 0x29: .byte, 0x2A: .byte
    ]

    static func fourBytes(_ id: UInt8, _ value: UInt32) -> MQTTProperty { .init(id: id, value: .fourBytes(value)) }
    static func twoBytes(_ id: UInt8, _ value: UInt16) -> MQTTProperty { .init(id: id, value: .twoBytes(value)) }
}

extension Array where Element == MQTTProperty {
    /// The numeric value of the first property `id`, whatever its width.
    func integer(_ id: UInt8) -> UInt32? {
        for property in self where property.id == id {
            switch property.value {
            case .byte(let v): return UInt32(v)
            case .twoBytes(let v): return UInt32(v)
            case .fourBytes(let v), .variableInteger(let v): return v
            default: return nil
            }
        }
        return nil
    }

    /// The string value of the first property `id`.
    func string(_ id: UInt8) -> String? {
        for property in self where property.id == id { if case .string(let s) = property.value { return s } }
        return nil
    }
}

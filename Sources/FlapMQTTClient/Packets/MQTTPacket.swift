/// The MQTT control packets this client sends and receives, for MQTT 3.1.1 (protocol level 4)
/// and MQTT 5 (level 5). Properties are empty for 3.1.1.
enum MQTTPacket: Equatable, Sendable {
    case connect(Connect)
    case connack(Connack)
    case publish(Publish)
    case puback(Acknowledgement)
    case pubrec(Acknowledgement)
    case pubrel(Acknowledgement)
    case pubcomp(Acknowledgement)
    case subscribe(Subscribe)
    case suback(Suback)
    case pingreq
    case pingresp
    case disconnect(Disconnect)

    struct Connect: Equatable, Sendable {
        var level: MQTTProtocolLevel
        var clientID: String
        var cleanStart: Bool
        /// Seconds; 0 turns keepalive off.
        var keepAlive: UInt16
        var username: String?
        var password: [UInt8]?
        var will: Publish?
        var properties: [MQTTProperty] = []
    }

    struct Connack: Equatable, Sendable {
        var sessionPresent: Bool
        /// 0 is success; MQTT 5 reason codes from 0x80 and 3.1.1 return codes 1–5 are refusals.
        var code: UInt8
        var properties: [MQTTProperty] = []
    }

    struct Publish: Equatable, Sendable {
        var topic: String
        var payload: [UInt8]
        var qos: UInt8
        var retain: Bool
        var duplicate = false
        /// Present when `qos` is 1 or 2.
        var packetID: UInt16?
        var properties: [MQTTProperty] = []
        /// Received only: the size of a payload too large to keep, which was skipped (`payload` is empty).
        var oversized: Int?
    }

    /// PUBACK, PUBREC, PUBREL and PUBCOMP.
    struct Acknowledgement: Equatable, Sendable {
        var packetID: UInt16
        /// MQTT 5 reason code; 0 is success.
        var code: UInt8 = 0
        var properties: [MQTTProperty] = []
    }

    struct Subscribe: Equatable, Sendable {
        var packetID: UInt16
        /// Topic filters, each with its maximum QoS.
        var filters: [Filter]
        var properties: [MQTTProperty] = []

        struct Filter: Equatable, Sendable {
            var filter: String
            var qos: UInt8
        }
    }

    struct Suback: Equatable, Sendable {
        var packetID: UInt16
        /// One per filter: the QoS granted (0–2), or a failure code from 0x80.
        var codes: [UInt8]
        var properties: [MQTTProperty] = []
    }

    struct Disconnect: Equatable, Sendable {
        var code: UInt8 = 0
        var properties: [MQTTProperty] = []
    }

    /// The packet type, as the high nibble of the first byte says it.
    var typeName: String {
        switch self {
        case .connect: "CONNECT"
        case .connack: "CONNACK"
        case .publish: "PUBLISH"
        case .puback: "PUBACK"
        case .pubrec: "PUBREC"
        case .pubrel: "PUBREL"
        case .pubcomp: "PUBCOMP"
        case .subscribe: "SUBSCRIBE"
        case .suback: "SUBACK"
        case .pingreq: "PINGREQ"
        case .pingresp: "PINGRESP"
        case .disconnect: "DISCONNECT"
        }
    }
}

/// The protocol level a CONNECT names: 4 for MQTT 3.1.1, 5 for MQTT 5.
enum MQTTProtocolLevel: UInt8, Sendable {
    case v311 = 4
    case v5 = 5
}

/// A packet that breaks the protocol: what was wrong, and the MQTT 5 reason code a
/// DISCONNECT gives for it (0x81 malformed packet, 0x82 protocol error, 0x95 packet too large).
struct MQTTProtocolError: Error, Equatable, CustomStringConvertible {
    var description: String
    var code: UInt8

    static func malformed(_ text: String) -> MQTTProtocolError { .init(description: text, code: 0x81) }
    static func violation(_ text: String) -> MQTTProtocolError { .init(description: text, code: 0x82) }
    static func tooLarge(_ text: String) -> MQTTProtocolError { .init(description: text, code: 0x95) }
}

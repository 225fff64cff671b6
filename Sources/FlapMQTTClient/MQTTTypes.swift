/// How to reach a broker and who to be there.
public struct MQTTOptions: Sendable {
    /// The broker's host.
    public var host: String
    /// The broker's port.
    public var port: Int
    /// The client's id at the broker.
    public var clientID: String
    /// The protocol spoken.
    public var protocolVersion: ProtocolVersion = .v5
    /// Keep subscriptions and queued QoS 1 and 2 messages across lost connections.
    public var persistentSession = true
    /// How long the broker keeps a persistent MQTT 5 session after the connection is lost (s).
    public var sessionExpiry: UInt32 = 7 * 86400
    /// Seconds between packets before the client pings the broker; 0 turns keepalive off.
    public var keepAlive = 30
    /// The user name, if the broker asks for one.
    public var username: String?
    /// The password; never logged.
    public var password: String?
    /// TLS, or nil for plain TCP.
    public var tls: TLS?
    /// What the broker publishes if the client vanishes.
    public var will: Will?
    /// When true, a QoS 1 or 2 message is acknowledged (PUBACK, PUBREC) only when the caller
    /// says so with ``MQTTClient/acknowledge(_:)``: after it is safely stored, say. When false,
    /// it is acknowledged as soon as it arrives.
    public var manualAcknowledgement = false
    /// The flight window: how many QoS 1 and 2 messages the broker may send before this client
    /// acknowledges them (MQTT 5 Receive Maximum; a 3.1.1 broker uses its own setting).
    public var receiveMaximum: UInt16 = 128
    /// The largest packet this client keeps whole. A larger PUBLISH arrives with its payload
    /// skipped (``MQTTMessage/oversizedPayload``); any other larger packet closes the connection.
    /// The broker is told no limit (MQTT 5 Maximum Packet Size), or it would drop such a
    /// message without a word and its sender would never hear why.
    public var maximumPacketSize = 256 * 1024
    /// How many messages may wait for the broker (queued or unacknowledged); publishing more
    /// is refused until it catches up.
    public var outgoingLimit = 100_000
    /// Told, for each message acknowledged, how long after its arrival the acknowledgement left.
    public var onAcknowledged: (@Sendable (Duration) -> Void)?

    /// MQTT 5 or 3.1.1.
    public enum ProtocolVersion: String, Sendable, CaseIterable { case v5 = "5", v311 = "3.1.1" }

    /// How the broker is trusted, and who the client is to it.
    public struct TLS: Sendable {
        /// PEM file of the certificate authorities that may sign the broker's certificate.
        public var caFile: String
        /// PEM files of this client's certificate and key, for brokers that ask for one.
        public var certificateFile: String?
        /// The key of ``certificateFile``.
        public var keyFile: String?
        /// Trust by `caFile`, with this client's certificate and key when given.
        public init(caFile: String, certificateFile: String? = nil, keyFile: String? = nil) {
            self.caFile = caFile
            self.certificateFile = certificateFile
            self.keyFile = keyFile
        }
    }

    /// The last will: published by the broker when the client goes without saying goodbye.
    public struct Will: Sendable {
        /// Its topic.
        public var topic: String
        /// Its payload.
        public var payload: [UInt8]
        /// Its QoS.
        public var qos: Int
        /// Whether the broker keeps it.
        public var retain: Bool
        /// A will of `payload` on `topic`.
        public init(topic: String, payload: [UInt8], qos: Int = 1, retain: Bool = true) {
            self.topic = topic
            self.payload = payload
            self.qos = qos
            self.retain = retain
        }
    }

    /// A client `clientID` of the broker at `host`:`port`, the rest as their defaults.
    public init(host: String, port: Int = 1883, clientID: String) {
        self.host = host
        self.port = port
        self.clientID = clientID
    }
}

/// What the client reports.
public enum MQTTEvent: Sendable {
    /// CONNACK: `code` 0 is success; otherwise the broker's reason (bad credentials, …).
    case connected(code: Int, sessionPresent: Bool)
    /// The connection was lost after the broker accepted it; the client reconnects.
    case disconnected(reason: String)
    /// A connection attempt failed before CONNACK (refused, unreachable, TLS).
    case connectFailed(reason: String)
    case message(MQTTMessage)
}

/// A message as it arrived.
public struct MQTTMessage: Sendable {
    /// Its topic.
    public var topic: String
    /// Its payload.
    public var payload: [UInt8]
    /// The QoS it came with.
    public var qos: Int
    /// Whether the broker kept it (a retained message sent on subscribing).
    public var retained: Bool
    /// The broker sent it before (MQTT's DUP flag): a redelivery after a lost connection.
    public var duplicate: Bool
    /// When it arrived.
    public var received: ContinuousClock.Instant
    /// The size in bytes of a payload over ``MQTTOptions/maximumPacketSize``, which was not kept
    /// (`payload` is then empty): the message can still be refused by name and acknowledged.
    public var oversizedPayload: Int?
    /// What ``MQTTClient/acknowledge(_:)`` needs: nil when nothing is owed (QoS 0, automatic).
    let acknowledgement: MQTTAcknowledgement?

    /// A message as given (the tests' and the client's own).
    public init(
        topic: String, payload: [UInt8], qos: Int = 0, retained: Bool = false, duplicate: Bool = false,
        received: ContinuousClock.Instant = .now
    ) {
        self.init(topic: topic, payload: payload, qos: qos, retained: retained, duplicate: duplicate, received: received, acknowledgement: nil)
    }

    init(
        topic: String, payload: [UInt8], qos: Int, retained: Bool, duplicate: Bool,
        received: ContinuousClock.Instant, acknowledgement: MQTTAcknowledgement?
    ) {
        self.topic = topic
        self.payload = payload
        self.qos = qos
        self.retained = retained
        self.duplicate = duplicate
        self.received = received
        self.acknowledgement = acknowledgement
    }
}

/// Which packet an acknowledgement answers, on which connection.
struct MQTTAcknowledgement: Sendable, Equatable {
    var connection: Int
    var packetID: UInt16
}

/// An MQTT operation that failed: what kind of failure, for code to act on, and what happened,
/// said plainly for people.
public struct MQTTError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What kind of failure.
    public enum Code: Sendable, Equatable {
        /// What was asked cannot be done at all: a topic, QoS, address or id that is not valid.
        case invalid
        /// The outgoing queue is at its limit while the broker is away; later may work.
        case queueFull
        /// The client is stopping or stopped.
        case stopped
        /// The broker refused it (a reason code in the description).
        case refused
        /// The TLS files cannot be used.
        case tls
    }

    /// Its kind.
    public var code: Code
    /// What went wrong, in words.
    public var description: String

    /// A failure saying `description`, of `code`.
    public init(_ description: String, code: Code = .invalid) {
        self.code = code
        self.description = description
    }
}

/// How to reach a broker and who to be there.
public struct MQTTOptions: Sendable {
    public var host: String
    public var port: Int
    public var clientID: String
    public var protocolVersion: ProtocolVersion = .v5
    /// Keep subscriptions and queued QoS 1 messages across lost connections.
    public var persistentSession = true
    /// How long the broker keeps a persistent MQTT 5 session after the connection is lost (s).
    public var sessionExpiry: UInt32 = 7 * 86400
    /// Seconds; at least 5 (libmosquitto refuses less).
    public var keepAlive = 30
    public var username: String?
    public var password: String?
    public var tls: TLS?
    public var will: Will?

    public enum ProtocolVersion: String, Sendable { case v5 = "5", v311 = "3.1.1" }

    public struct TLS: Sendable {
        public var caFile: String
        public var certificateFile: String?
        public var keyFile: String?
        public init(caFile: String, certificateFile: String? = nil, keyFile: String? = nil) {
            self.caFile = caFile
            self.certificateFile = certificateFile
            self.keyFile = keyFile
        }
    }

    public struct Will: Sendable {
        public var topic: String
        public var payload: [UInt8]
        public var qos: Int
        public var retain: Bool
        public init(topic: String, payload: [UInt8], qos: Int = 1, retain: Bool = true) {
            self.topic = topic
            self.payload = payload
            self.qos = qos
            self.retain = retain
        }
    }

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
    case disconnected(code: Int)
    /// A connection attempt failed before CONNACK (refused, unreachable, TLS).
    case connectFailed(reason: String)
    case message(MQTTMessage)
}

/// A message as it arrived.
public struct MQTTMessage: Sendable {
    public var topic: String
    public var payload: [UInt8]
    public var qos: Int
    public var retained: Bool
    /// When libmosquitto handed it over (it has already sent PUBACK for QoS 1 by then).
    public var received: ContinuousClock.Instant
}

/// An MQTT operation that failed, said plainly.
public struct MQTTError: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

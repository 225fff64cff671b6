import FlapMQTTClient
import FoundationEssentials
import Synchronization

/// How flapd's connection to the broker stands, for `/v1/status` and the web page: connected,
/// connecting (with the reason the last attempt failed), since when, and the broker.
public struct MQTTLinkStatus: Sendable, Encodable, Equatable {
    /// The broker, `host:port`.
    public var broker: String
    /// Connected, connecting or refused.
    public var state: MQTTLinkState
    /// Since when.
    public var since: Date
    /// Why the last attempt failed or the connection was lost (never a password).
    public var reason: String?
    /// `5` or `3.1.1`.
    public var protocolVersion: String
}

/// Where the connection to the broker stands.
public enum MQTTLinkState: String, Sendable, Encodable {
    /// Trying to connect (at start, after a loss, or again in MQTT 3.1.1).
    case connecting
    case connected
    /// The broker said no (a bad password, a client id it does not take): the reason says which.
    case refused
    /// flapd is stopping.
    case stopped
}

/// The status as the bridge's events change it.
final class MQTTLink: Sendable {
    private let status: Mutex<MQTTLinkStatus>

    init(broker: String, protocolVersion: String) {
        status = Mutex(MQTTLinkStatus(broker: broker, state: .connecting, since: Date(), reason: nil, protocolVersion: protocolVersion))
    }

    var current: MQTTLinkStatus { status.withLock { $0 } }

    func set(_ state: MQTTLinkState, reason: String? = nil, protocolVersion: String? = nil) {
        status.withLock { status in
            if status.state != state { status.since = Date() }
            status.state = state
            status.reason = reason
            if let protocolVersion { status.protocolVersion = protocolVersion }
        }
    }
}

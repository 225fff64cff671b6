import NIOCore

/// Everything the session reacts to, in one ordered stream: the caller's requests, the
/// connection's packets and failures, and its own timers. Inputs from a connection carry its
/// number, so what arrives from one already replaced is ignored.
enum MQTTSessionInput: Sendable {
    case publish(MQTTOutgoing)
    case subscribe([MQTTPacket.Subscribe.Filter])
    case acknowledge(MQTTAcknowledgement)
    /// Disconnect cleanly; with `flushWithin`, first wait (at most that long) until every
    /// queued message is acknowledged by the broker.
    case stop(flushWithin: Duration?, done: CheckedContinuation<Void, Never>?)

    case connected(Int, any Channel)
    case connectFailed(Int, reason: String)
    case packet(Int, MQTTPacket, received: ContinuousClock.Instant)
    case failed(Int, reason: String, code: UInt8?)
    case closed(Int, reason: String?)
    case flush(Int)
    case tick(Int)
    case reconnect(Int)
}

/// A message on its way to the broker.
struct MQTTOutgoing: Sendable {
    var publish: MQTTPacket.Publish
    /// Resumed when the broker has it (PUBACK, PUBCOMP; at once for QoS 0 once written).
    var waiter: CheckedContinuation<Void, any Error>?
    /// After PUBREC: only the PUBREL is resent.
    var released = false
}

/// A QoS 1 or 2 message received and not yet acknowledged.
struct MQTTIncoming {
    var packetID: UInt16
    var qos: UInt8
    var received: ContinuousClock.Instant
    var acknowledged = false
}

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

/// The messages owed an acknowledgement, in arrival order, found by packet id at once (a scan
/// per message cost a quarter of the client's time under a burst).
struct UnacknowledgedMessages {
    private var queue = CircularBuffer<MQTTIncoming>()
    /// Packet id → position counted from the first message ever queued.
    private var positions: [UInt16: Int] = [:]
    private var removed = 0

    var count: Int { queue.count }

    func contains(_ id: UInt16) -> Bool { positions[id] != nil }

    mutating func append(_ message: MQTTIncoming) {
        positions[message.packetID] = removed + queue.count
        queue.append(message)
    }

    /// Marks `id` acknowledged; false when it is not owed.
    mutating func acknowledge(_ id: UInt16) -> Bool {
        guard let position = positions[id] else { return false }
        queue[queue.index(queue.startIndex, offsetBy: position - removed)].acknowledged = true
        return true
    }

    /// Takes the first message if it is acknowledged.
    mutating func popAcknowledged() -> MQTTIncoming? {
        guard let first = queue.first, first.acknowledged else { return nil }
        queue.removeFirst()
        positions[first.packetID] = nil
        removed += 1
        return first
    }

    mutating func removeAll() {
        queue.removeAll()
        positions.removeAll()
        removed = 0
    }
}

import FlapMQTTClient
import FoundationEssentials
import Wematch

/// A member this kiosk hosts (one strap, one person): its retained join record, its samples,
/// and its own MQTT connection, whose will clears the record if the kiosk dies.
public final class HostedMember: Sendable {
    /// The room it is in.
    public let room: String
    /// Its id in the room.
    public let id: MemberID
    private let client: MQTTClient
    private let record: MemberRecord

    /// Member `id` of `room`, joining with `record` over a connection of its own made with `options`.
    public init(room: String, id: MemberID, record: MemberRecord, options: MQTTOptions) throws(MQTTError) {
        if let problem = RoomMessages.nameProblem(id) { throw MQTTError("member id \(id.debugDescription): \(problem)") }
        if let problem = RoomMessages.nameProblem(room) { throw MQTTError("room \(room.debugDescription): \(problem)") }
        self.room = room
        self.id = id
        self.record = record
        var options = options
        options.persistentSession = false
        // Dying without leaving clears the record: the broker publishes it empty and retained.
        options.will = .init(topic: RoomMessages.memberTopic(room: room, member: id), payload: [], qos: 1, retain: true)
        client = try MQTTClient(options: options)
    }

    /// Connects, and announces the member each time the connection is made (a will may have
    /// cleared it while the kiosk was away), until cancelled.
    public func run() async {
        client.start()
        await withTaskCancellationHandler {
            for await event in client.events {
                if case .connected(0, _) = event {
                    try? client.publish(RoomMessages.memberTopic(room: room, member: id), RoomMessages.encode(record), qos: 1, retain: true)
                }
            }
        } onCancel: { [client] in
            client.stop()
        }
    }

    /// One sample: QoS 0, never retained.
    public func send(_ sample: HeartSample) throws(MQTTError) {
        try client.publish(RoomMessages.sampleTopic(room: room, member: id), RoomMessages.encode(sample), qos: 0, retain: false)
    }

    /// Clears the record and disconnects (then ``run()`` returns).
    public func leave() async {
        try? client.publish(RoomMessages.memberTopic(room: room, member: id), [], qos: 1, retain: true)
        await client.disconnect(within: .seconds(2))
    }
}

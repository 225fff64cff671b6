import FlapMQTTClient
import Wematch

/// A kiosk's view of one room over MQTT: every join record and sample of the room fed to the
/// room engine as it arrives; the room's state on request. Reads only: members are hosted by
/// ``HostedMember``.
public actor RoomWatcher<C: Clock<Duration>> where C.Instant: Sendable {
    /// The room watched.
    public let name: String
    private let clock: C
    private var room: Room<C.Instant>
    private let reader: TopicReader
    private var problems: [String] = []

    /// Watches room `name` (admitting `capacity` members) through the broker `options` point
    /// at (its client id is used as is); a message's age is told by `clock`.
    public init(room name: String, capacity: Int = Room<C.Instant>.defaultCapacity, options: MQTTOptions, clock: C) throws(MQTTError) {
        self.name = name
        self.clock = clock
        room = Room(name: name, capacity: capacity)
        reader = try TopicReader(options: options)
    }

    /// Reads the room until cancelled.
    public func run() async {
        await reader.read(RoomMessages.roomFilter(name)) { message in
            guard let (roomName, subject) = RoomMessages.parse(message.topic), roomName == name else { return }
            take(subject, message.payload, at: clock.now)
        }
    }

    private func take(_ subject: RoomMessages.Subject, _ payload: [UInt8], at now: C.Instant) {
        do {
            switch subject {
            case .member(let id) where payload.isEmpty:
                room.leave(id)
            case .member(let id):
                room.join(id, try RoomMessages.record(payload), now: now)
            case .sample(let id):
                room.receive(try RoomMessages.sample(payload), from: id, now: now)
            }
        } catch {
            if problems.count < 100 { problems.append("\(subject): \(error)") }
        }
    }

    /// The room as it stands now.
    public func state() -> RoomState { room.update(now: clock.now) }

    /// The room as a kiosk draws it now.
    public func plot() -> RoomPlot { room.plot(now: clock.now) }

    /// Messages that could not be read (kept for the log; never their contents).
    public func unreadable() -> [String] { problems }
}

extension RoomWatcher where C == ContinuousClock {
    /// A watcher of room `name` on the wall clock, over a connection made with `options`.
    public init(room name: String, capacity: Int = Room<ContinuousClock.Instant>.defaultCapacity, options: MQTTOptions) throws(MQTTError) {
        try self.init(room: name, capacity: capacity, options: options, clock: ContinuousClock())
    }
}

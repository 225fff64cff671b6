import FlapPresence
import FlapStorage
import FoundationEssentials
import Synchronization

/// The household's presence, retained: everyone on `presence`, each person on `presence/<id>`
/// with, when discovery is on, a Home Assistant sensor of their own (`here`, `away` or
/// `writing`). People who hide their presence are left out: their topic and sensor are emptied,
/// also after a restart (whom they were given to is kept in the state directory).
public final class RetainedPresence: RetainedOutput {
    let publisher: TopicPublisher
    let discovery: HomeAssistantDiscovery?
    private let announcedFile: String
    private let last = Mutex<[String: [UInt8]]>([:])

    /// Publishes through `outlet`.
    public init(outlet: MQTTOutlet) {
        publisher = outlet.publisher
        discovery = outlet.discovery
        announcedFile = outlet.stateDirectory + "/mqtt-presence-people"
    }

    /// One person as the topics carry them.
    struct PersonBody: Encodable, Equatable {
        var id: String
        var name: String
        var sender: String
        var state: String
        var here: Bool
        var lastSeen: Date?
        var writing: Bool

        init(_ person: PersonPresence) {
            (id, name, sender, state) = (person.id, person.name, person.sender, person.state)
            (here, lastSeen, writing) = (person.here, person.lastSeen, person.writing)
        }

        enum CodingKeys: String, CodingKey { case id, name, sender, state, here, lastSeen, writing }

        /// `lastSeen` is null, not left out, for someone never seen (as in the API).
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(name, forKey: .name)
            try container.encode(sender, forKey: .sender)
            try container.encode(state, forKey: .state)
            try container.encode(here, forKey: .here)
            try container.encode(lastSeen, forKey: .lastSeen)
            try container.encode(writing, forKey: .writing)
        }
    }

    struct Everyone: Encodable {
        var people: [PersonBody]
        /// Anyone writing now: one value to automate on.
        var someoneWriting: Bool
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// `people`: as anyone outside sees them (those who hide already left out).
    public func publish(_ people: [PersonPresence]) {
        let bodies = people.map(PersonBody.init)
        var payloads: [String: [UInt8]] = [:]
        if let data = try? Self.encoder.encode(Everyone(people: bodies, someoneWriting: bodies.contains { $0.writing })) {
            payloads[publisher.topics.name(.presence)] = Array(data)
        }
        for body in bodies {
            if let data = try? Self.encoder.encode(body) { payloads[publisher.topics.name(.personPresence(body.id))] = Array(data) }
        }
        if let discovery {
            for person in people {
                let (topic, config) = discovery.presenceConfig(for: person)
                if let data = try? HomeAssistantDiscovery.encoder.encode(config) { payloads[topic] = Array(data) }
            }
        }
        let changed = last.withLock { last in
            let gone = last.keys.filter { payloads[$0] == nil }.map { ($0, [UInt8]()) }
            let new = payloads.filter { last[$0.key] != $0.value }.map { ($0.key, $0.value) }
            last = payloads
            return gone + new
        }
        for (topic, payload) in changed { publisher.publish(named: topic, payload, retain: true) }
        forgetEarlier(than: Set(bodies.map(\.id)))
    }

    /// Publishes everyone's presence again (a new connection).
    public func republish() {
        for (topic, payload) in last.withLock({ $0 }) { publisher.publish(named: topic, payload, retain: true) }
    }

    /// Empties the topics and sensors of people given them before this flapd started (or
    /// before they hid), also under a device id used before, and keeps whom they are given to
    /// now: one line each, the device id, a tab, the person.
    private func forgetEarlier(than people: Set<String>) {
        let device = publisher.topics.device
        let now = Set(people.map { "\(device)\t\($0)" })
        let lines = SmallFile.lines(announcedFile, largest: HomeAssistantDiscovery.largestAnnouncedFile).map(String.init)
        let earlier = Set(lines.filter { $0.contains("\t") })
        guard earlier != now else { return }
        var oldDevices = Set<String>()
        for line in earlier.subtracting(now) {
            let parts = line.split(separator: "\t", maxSplits: 1).map(String.init)
            let topics = DeviceTopics(base: publisher.topics.base, device: parts[0])
            publisher.publish(named: topics.name(.personPresence(parts[1])), [], retain: true)
            if let discovery { publisher.publish(named: discovery.presenceConfigTopic(for: parts[1], device: parts[0]), [], retain: true) }
            if parts[0] != device { oldDevices.insert(parts[0]) }
        }
        for old in oldDevices { publisher.publish(named: DeviceTopics(base: publisher.topics.base, device: old).name(.presence), [], retain: true) }
        try? now.sorted().map { $0 + "\n" }.joined().write(toFile: announcedFile, atomically: true, encoding: .utf8)
    }
}

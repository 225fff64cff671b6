import FlapMQTTClient
import Logging
import Synchronization

/// Publishes flapd's topics (QoS 1) through the bridge's current client: a broker that is away
/// with the client's queue full is said once, not once a message.
struct TopicPublisher: Sendable {
    let topics: DeviceTopics
    let clients: CurrentClient
    let logger: Logger
    private let queueFull = QueueFullWarning()

    init(topics: DeviceTopics, clients: CurrentClient, logger: Logger) {
        self.topics = topics
        self.clients = clients
        self.logger = logger
    }

    func publish(_ topic: OutgoingTopic, _ payload: [UInt8], retain: Bool = false) {
        publish(named: topics.name(topic), payload, retain: retain)
    }

    func publish(named topic: String, _ payload: [UInt8], retain: Bool = false) {
        do throws(MQTTError) {
            try clients.current.publish(topic, payload, qos: 1, retain: retain)
            queueFull.clear()
        } catch  where error.code == .queueFull {
            if queueFull.first() { logger.warning("the broker is away and the queue is full: not published", metadata: ["topic": "\(topic)"]) }
        } catch  where error.code == .stopped {
            // flapd is stopping: what is left is published on the next start.
        } catch {
            logger.warning("could not publish", metadata: ["topic": "\(topic)", "error": "\(error)"])
        }
    }
}

/// Whether the "could not publish" warning was already given since the last success.
final class QueueFullWarning: Sendable {
    private let said = Mutex(false)
    func first() -> Bool {
        said.withLock { said in
            defer { said = true }; return !said
        }
    }
    func clear() { said.withLock { $0 = false } }
}

/// The bridge's current client, replaced once if the broker needs MQTT 3.1.1.
final class CurrentClient: Sendable {
    private let client: Mutex<MQTTClient>
    init(_ client: MQTTClient) { self.client = Mutex(client) }
    var current: MQTTClient { client.withLock { $0 } }
    func replace(with client: MQTTClient) { self.client.withLock { $0 = client } }
}

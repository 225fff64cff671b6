import FlapMQTTClient
import FlapMessaging

/// A kind of topic flapd takes from MQTT, in one shape: its name, the filters it is subscribed
/// with, the source its messages carry, and what it does with what arrives. A new topic is a file
/// in `Intake/Kinds/` and a line in ``IncomingTopics/kinds``; the subscriptions, the parsing of
/// a topic's name and the dispatch follow from those.
protocol IncomingTopicKind: Sendable {
    /// What it is called in logs and tests (`message`, `slot`, `ha/set`).
    var name: String { get }
    /// The source its messages carry in receipts and metrics.
    var source: MessageSource { get }
    /// The filters flapd subscribes to for it (`+` stands for one level).
    func filters(_ topics: DeviceTopics) -> [String]
    /// What arrives on `message.topic`, one of its own: queued for the intake (the ticket), or
    /// settled here (nil).
    func take(_ message: MQTTMessage, with intake: TopicIntake) async throws -> IntakeTicket?
}

/// What a topic kind takes messages with.
struct TopicIntake: Sendable {
    let topics: DeviceTopics
    let intake: MessageIntake
    let receipts: ReceiptPublisher
    let controls: ControlTopics

    /// How a message the broker sent again is told from a new one (``MessageTopics/repetition(_:)``).
    func repetition(_ message: MQTTMessage) -> Repetition { MessageTopics.repetition(message) }

    /// The payload as text; nil, with a rejection published, when it is not UTF-8.
    func text(of message: MQTTMessage, source: MessageSource) -> String? {
        guard let text = String(validating: message.payload, as: UTF8.self) else {
            receipts.publishRejection(id: nil, reason: "the command is not UTF-8 text", source: source)
            return nil
        }
        return text
    }
}

/// Every kind of topic flapd takes, in the order it subscribes to them.
enum IncomingTopics {
    static let kinds: [any IncomingTopicKind] = [
        MessageTopic(), CommandTopic(), SlotTopic(), HomeAssistantTextTopic(), ControlTopic(), GroupTopic()
    ]

    /// Whether `topic` is one that `filter` (MQTT's: `+` one level, `#` the rest) names.
    static func matches(_ topic: String, filter: String) -> Bool {
        let levels = topic.split(separator: "/", omittingEmptySubsequences: false)
        let wanted = filter.split(separator: "/", omittingEmptySubsequences: false)
        for (index, level) in wanted.enumerated() {
            if level == "#" { return true }
            guard index < levels.count, level == "+" || level == levels[index] else { return false }
        }
        return levels.count == wanted.count
    }
}

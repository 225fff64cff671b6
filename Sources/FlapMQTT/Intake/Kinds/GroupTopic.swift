import FlapMQTTClient
import FlapMessaging

/// `<base>/group/<group>/message`: a message as JSON to every display in a group this one is in.
struct GroupTopic: IncomingTopicKind {
    let name = "group"
    let source = MessageSource.mqtt

    func filters(_ topics: DeviceTopics) -> [String] { topics.groups.map { "\(topics.base)/group/\($0)/message" } }

    func take(_ message: MQTTMessage, with intake: TopicIntake) async throws -> IntakeTicket? {
        await intake.intake.queue(json: message.payload, source: source, announce: true, repetition: intake.repetition(message))
    }
}

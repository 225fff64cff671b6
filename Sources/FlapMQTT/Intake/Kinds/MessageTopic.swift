import FlapMQTTClient
import FlapMessaging

/// `<device>/message`: a message as JSON, as `POST /v1/messages` takes it.
struct MessageTopic: IncomingTopicKind {
    let name = "message"
    let source = MessageSource.mqtt

    func filters(_ topics: DeviceTopics) -> [String] { [topics.prefix + name] }

    func take(_ message: MQTTMessage, with intake: TopicIntake) async throws -> IntakeTicket? {
        await intake.intake.queue(json: message.payload, source: source, announce: true, repetition: intake.repetition(message))
    }
}

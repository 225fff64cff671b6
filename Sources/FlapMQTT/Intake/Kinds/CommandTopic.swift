import FlapJSON
import FlapMQTTClient
import FlapMessaging

/// `<device>/command`: plain text, the slot of sender `mqtt-command`.
struct CommandTopic: IncomingTopicKind {
    let name = "command"
    let source = MessageSource.mqttCommand

    func filters(_ topics: DeviceTopics) -> [String] { [topics.prefix + name] }

    func take(_ message: MQTTMessage, with intake: TopicIntake) async throws -> IntakeTicket? {
        guard let text = intake.text(of: message, source: source) else { return nil }
        return await intake.intake.queue(fields: ["text": .string(text)], source: source, announce: true, repetition: intake.repetition(message))
    }
}

import FlapJSON
import FlapMQTTClient
import FlapMessaging

/// `<device>/ha/set`: Home Assistant's text entity, plain text or an automation's JSON message
/// (`{"text": "DOOR OPEN", "duration": 60}`), always Home Assistant's own.
struct HomeAssistantTextTopic: IncomingTopicKind {
    let name = "ha/set"
    let source = MessageSource.homeAssistant

    func filters(_ topics: DeviceTopics) -> [String] { [topics.prefix + name] }

    func take(_ message: MQTTMessage, with intake: TopicIntake) async throws -> IntakeTicket? {
        guard let text = intake.text(of: message, source: source) else { return nil }
        let repetition = intake.repetition(message)
        guard text.hasPrefix("{"), let fields = (try? JSONValue(parsing: message.payload))?.object else {
            return await intake.intake.queue(fields: ["text": .string(text)], source: source, announce: true, repetition: repetition)
        }
        // A sender in it would let an automation post as a member.
        if fields["sender"] != nil {
            intake.intake.refuse(.invalid, source: source)
            intake.receipts.publishRejection(
                id: fields["id"]?.string,
                reason: "sender: a message on ha/set is always from home-assistant; leave sender out "
                    + "(to send as someone else, publish to \(intake.topics.prefix)message)", source: source)
            return nil
        }
        return await intake.intake.queue(fields: fields, source: source, announce: true, repetition: repetition)
    }
}

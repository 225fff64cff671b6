import FlapJSON
import FlapMQTTClient
import FlapMessaging

/// `<device>/slot/<sender>`: retained JSON, that sender's message whatever its body says of the
/// sender; an empty payload clears the slot.
struct SlotTopic: IncomingTopicKind {
    let name = "slot"
    let source = MessageSource.mqtt

    func filters(_ topics: DeviceTopics) -> [String] { [topics.prefix + "slot/+"] }

    func take(_ message: MQTTMessage, with intake: TopicIntake) async throws -> IntakeTicket? {
        let sender = String(message.topic.split(separator: "/", omittingEmptySubsequences: false).last ?? "")
        if message.payload.isEmpty {
            _ = try await intake.intake.inbox.clearSlot(sender, now: intake.intake.now())
            return nil
        }
        guard var fields = (try? JSONValue(parsing: message.payload))?.object else {
            return await intake.intake.queue(json: message.payload, source: source, announce: true)  // says what is wrong with it
        }
        if let given = fields["sender"]?["id"]?.string, given != sender {
            intake.intake.refuse(.invalid, source: source)
            return IntakeTicket(invalid: MessageErrors(field: "sender.id", "is \(given) but the slot topic is \(sender)'s"))
        }
        var senderFields = fields["sender"]?.object ?? [:]
        senderFields["id"] = .string(sender)
        fields["sender"] = .object(senderFields)
        return await intake.intake.queue(fields: fields, source: source, announce: true, repetition: intake.repetition(message))
    }
}

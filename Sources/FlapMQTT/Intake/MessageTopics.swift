import FlapJSON
import FlapMQTTClient
import FlapMessaging
import FoundationEssentials

/// What arrives on the message topics (`message`, `command`, `slot/<sender>`, `ha/set`, the
/// groups') queued for the inbox through the same intake as HTTP; Home Assistant's controls
/// handed to ``ControlTopics``.
struct MessageTopics: Sendable {
    let topics: DeviceTopics
    let intake: MessageIntake
    let receipts: ReceiptPublisher
    let controls: ControlTopics

    /// The largest payload taken, as on HTTP.
    static let maximumPayload = 64 * 1024

    /// Queues `message` for the inbox; nil when it was settled here (refused for its size or
    /// encoding, an empty slot cleared, a control done).
    func queue(_ message: MQTTMessage) async throws -> IntakeTicket? {
        let topic = topics.parse(message.topic)
        let source = topic.source
        let size = message.oversizedPayload ?? message.payload.count
        guard size <= Self.maximumPayload else {
            intake.refuse(.tooLarge, source: source)
            receipts.publishRejection(
                id: nil, reason: "the payload is \(size) bytes; a message may be at most 64 KiB (\(Self.maximumPayload) bytes)", source: source)
            return nil
        }
        let repetition = Self.repetition(message)
        switch topic {
        case .control(let control):
            await controls.handle(control, message.payload)
            return nil
        case .command, .homeAssistantText:
            guard let text = String(validating: message.payload, as: UTF8.self) else {
                receipts.publishRejection(id: nil, reason: "the command is not UTF-8 text", source: source)
                return nil
            }
            // An automation's JSON on ha/set: a message with its fields ({"text": "DOOR OPEN", "duration": 60}).
            // It is always Home Assistant's: a sender in it would let an automation post as a member.
            if topic == .homeAssistantText, text.hasPrefix("{"), let fields = (try? JSONValue(parsing: message.payload))?.object {
                if fields["sender"] != nil {
                    intake.refuse(.invalid, source: source)
                    receipts.publishRejection(
                        id: fields["id"]?.string,
                        reason: "sender: a message on ha/set is always from home-assistant; leave sender out "
                            + "(to send as someone else, publish to \(topics.prefix)message)", source: source)
                    return nil
                }
                return await intake.queue(fields: fields, source: source, announce: true, repetition: repetition)
            }
            return await intake.queue(fields: ["text": .string(text)], source: source, announce: true, repetition: repetition)
        case .slot(let sender):
            if message.payload.isEmpty {
                // An empty retained payload: the sender cleared its slot.
                _ = try await intake.inbox.clearSlot(sender, now: intake.now())
                return nil
            }
            return await queueSlot(message.payload, sender: sender, repetition: repetition)
        case .message, .group:
            return await intake.queue(json: message.payload, source: .mqtt, announce: true, repetition: repetition)
        }
    }

    /// A slot message is that sender's, whatever its body says about the sender.
    private func queueSlot(_ payload: [UInt8], sender: String, repetition: Repetition) async -> IntakeTicket {
        guard var fields = (try? JSONValue(parsing: payload))?.object else {
            return await intake.queue(json: payload, source: .mqtt, announce: true)  // says what is wrong with it
        }
        if let given = fields["sender"]?["id"]?.string, given != sender {
            return IntakeTicket(invalid: MessageErrors(field: "sender.id", "is \(given) but the slot topic is \(sender)'s"))
        }
        var senderFields = fields["sender"]?.object ?? [:]
        senderFields["id"] = .string(sender)
        fields["sender"] = .object(senderFields)
        return await intake.queue(fields: fields, source: .mqtt, announce: true, repetition: repetition)
    }

    /// A message the broker says it sent before (DUP) or kept (retained) is a copy of whichever
    /// earlier message it repeats; any other is new unless it repeats its sender's current one.
    static func repetition(_ message: MQTTMessage) -> Repetition {
        message.duplicate || message.retained ? .copyOfAnyEarlier : .newUnlessCurrent
    }

    static func id(in payload: [UInt8]) -> String? {
        (try? JSONValue(parsing: payload))?["id"]?.string
    }
}

import FlapJSON
import FlapMQTTClient
import FlapMessaging
import FoundationEssentials

/// What arrives on flapd's topics, refused here when it is too large, else handed to its kind of
/// topic (``IncomingTopics/kinds``): messages queued for the inbox through the same intake as
/// HTTP, Home Assistant's controls done through ``ControlTopics``.
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
        let kind = topics.kind(of: message.topic)
        let source = kind.source
        let size = message.oversizedPayload ?? message.payload.count
        guard size <= Self.maximumPayload else {
            intake.refuse(.tooLarge, source: source)
            receipts.publishRejection(
                id: nil, reason: "the payload is \(size) bytes; a message may be at most 64 KiB (\(Self.maximumPayload) bytes)", source: source)
            return nil
        }
        return try await kind.take(message, with: TopicIntake(topics: topics, intake: intake, receipts: receipts, controls: controls))
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

import FlapMessaging
import FoundationEssentials
import Synchronization

/// Publishes what the inbox decides on `receipt`: outcomes of messages taken over MQTT, and every
/// final receipt, in commit order; what became of Home Assistant's text also on its retained
/// `ha/outcome`, with the warnings its message had.
final class ReceiptPublisher: Sendable {
    let publisher: TopicPublisher
    /// The warnings of Home Assistant's latest message, by its id: its later receipts replace
    /// the retained `ha/outcome` and carry them too.
    private let homeAssistantWarnings = Mutex<(id: String, warnings: [String])?>(nil)

    /// The appliance's wall clock, which a receipt's `at` is read from.
    private let now: @Sendable () -> Date

    init(publisher: TopicPublisher, now: @escaping @Sendable () -> Date) {
        self.publisher = publisher
        self.now = now
    }

    func announce(_ event: InboxEvent) {
        switch event {
        case .final(let receipt):
            let warnings = homeAssistantWarnings.withLock { $0?.id == receipt.id ? $0?.warnings : nil }
            publishReceipt(receipt, source: nil, warnings: warnings ?? [])
        case .outcome(_, .accepted(let receipt), let note):
            if note.source == .homeAssistant { homeAssistantWarnings.withLock { $0 = (receipt.id, note.warnings) } }
            // Already final (expired on arrival, older than its slot): that receipt follows.
            if !receipt.status.isFinal { publishReceipt(receipt, source: note.source, warnings: note.warnings) }
        case .outcome(_, .duplicate(let receipt), let note):
            publishReceipt(receipt, source: note.source, duplicate: true)
        case .outcome(let id, .refused(let reason), let note):
            publishRejection(id: id, reason: reason, source: note.source)
        case .outcome(let id, .rateLimited(let wait), let note):
            publishRejection(id: id, reason: "too many messages from this sender; try again in \(Int(wait.rounded(.up))) s", source: note.source)
        case .outcome(_, .replayed, _), .outcome(_, .keyReused, _):
            break  // idempotency keys come over HTTP only
        }
    }

    func publishReceipt(_ receipt: Receipt, source: MessageSource?, warnings: [String] = [], duplicate: Bool = false) {
        publish(
            ReceiptBody(
                id: receipt.id, sender: receipt.sender, status: receipt.status.rawValue, reason: receipt.reason,
                warnings: warnings.isEmpty ? nil : warnings, duplicate: duplicate ? true : nil, source: source,
                device: publisher.topics.device, at: now().formatted(.iso8601)))
    }

    func publishRejection(id: String?, reason: String, source: MessageSource) {
        publish(
            ReceiptBody(
                id: id, sender: nil, status: "rejected", reason: reason, warnings: nil, duplicate: nil, source: source,
                device: publisher.topics.device, at: now().formatted(.iso8601)))
    }

    private func publish(_ receipt: ReceiptBody) {
        guard let data = try? JSONEncoder.sorted.encode(receipt) else { return }
        publisher.publish(.receipt, Array(data))
        // What became of Home Assistant's text, where Home Assistant looks: its outcome sensor.
        if receipt.source == .homeAssistant || receipt.sender == MQTTBridge.homeAssistant {
            publisher.publish(.homeAssistantOutcome, Array(data), retain: true)
        }
    }
}

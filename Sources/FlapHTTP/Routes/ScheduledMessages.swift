import FlapJSON
import FlapMessaging
import FoundationEssentials

/// `GET /v1/scheduled`: the messages sent for later, soonest first.
struct ScheduledList: Encodable {
    var scheduled: [ScheduledMessage]
}

/// A message waiting for its instant: its receipt's times and what it will show.
struct ScheduledMessage: Encodable {
    var id: String
    var sender: String
    var senderName: String?
    var notBefore: Date?
    var expiresAt: Date
    var createdAt: Date
    var text: String?
    var codes: [[Int]]?
    var pattern: [[String]]?
    var vbml: JSONValue?

    init(_ entry: (receipt: Receipt, message: Message)) {
        id = entry.receipt.id
        sender = entry.receipt.sender
        senderName = entry.message.sender.name
        notBefore = entry.receipt.notBefore
        expiresAt = entry.receipt.expiresAt
        createdAt = entry.receipt.createdAt
        switch entry.message.content {
        case .text(let value): text = value
        case .codes(let value): codes = value
        case .pattern(let value): pattern = value
        case .vbml(let value): vbml = value
        }
    }
}

import FoundationEssentials

/// Where a message stands. Every accepted message ends in exactly one final status.
public enum ReceiptStatus: String, Sendable, Codable, CaseIterable {
    /// Committed, waiting for its `notBefore` instant to take its sender's slot.
    case scheduled
    /// In the inbox, not yet shown to the end.
    case accepted
    /// A panel finished moving to it. Final.
    case displayed
    /// Replaced in its slot by a newer message (or its slot was cleared) before it was shown. Final.
    case superseded
    /// Its time ran out before it was shown. Final.
    case expired
    /// It cannot be shown (the reason says why). Final.
    case rejected
    /// Cancelled while it waited for its instant. Final.
    case cancelled
    /// An empty text that cleared its sender's slot. Final.
    case cleared

    /// Whether nothing more will become of it (all but accepted and scheduled).
    public var isFinal: Bool { self != .accepted && self != .scheduled }
}

extension Message {
    /// What the message says, short, for lists of receipts.
    public var summary: String {
        guard case .text(let text) = content else { return "(painting)" }
        let joined = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).joined(separator: " / ")
        return joined.count > Self.summaryLength ? String(joined.prefix(Self.summaryLength - 1)) + "…" : joined
    }

    static let summaryLength = 80
}

/// What became of one message.
public struct Receipt: Sendable, Equatable, Codable {
    /// The message's id.
    public var id: String
    /// Its sender's id.
    public var sender: String
    /// What became of it.
    public var status: ReceiptStatus
    /// Why, for refused, rejected, superseded or expired.
    public var reason: String?
    /// When flapd took it.
    public var receivedAt: Date
    /// When its sender made it.
    public var createdAt: Date
    /// When it stops being shown.
    public var expiresAt: Date
    /// When a message sent for later takes its slot.
    public var notBefore: Date? = nil
    /// When the status became final.
    public var finalAt: Date?
    /// What the message said, for people: its text (lines joined by ` / `, at most 80
    /// characters), or `(painting)` for codes and patterns. Kept as long as the receipt.
    public var text: String? = nil
}

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

    public var isFinal: Bool { self != .accepted && self != .scheduled }
}

/// What became of one message.
public struct Receipt: Sendable, Equatable, Codable {
    public var id: String
    public var sender: String
    public var status: ReceiptStatus
    public var reason: String?
    public var receivedAt: Date
    public var createdAt: Date
    public var expiresAt: Date
    /// When a message sent for later takes its slot.
    public var notBefore: Date? = nil
    /// When the status became final.
    public var finalAt: Date?
}

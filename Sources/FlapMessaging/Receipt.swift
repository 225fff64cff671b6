import Foundation

/// Where a message stands. Every accepted message ends in exactly one final status.
public enum ReceiptStatus: String, Sendable, Codable, CaseIterable {
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

    public var isFinal: Bool { self != .accepted }
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
    /// When the status became final.
    public var finalAt: Date?
}

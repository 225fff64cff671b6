/// Why a message was refused, as the `reason` label of `flapd_messages_rejected_total`.
public struct RejectionReason: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The reason's label.
    public let rawValue: String

    /// The reason labelled `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Its label.
    public var description: String { rawValue }

    /// Not a valid message (its problems are in the answer).
    public static let invalid = RejectionReason(rawValue: "invalid")
    /// The sender may not send.
    public static let refused = RejectionReason(rawValue: "refused")
    /// Over the sender's rate.
    public static let rateLimited = RejectionReason(rawValue: "rate_limited")
    /// Larger than a message may be.
    public static let tooLarge = RejectionReason(rawValue: "too_large")
    /// Not sent as JSON.
    public static let unsupportedType = RejectionReason(rawValue: "unsupported_type")
    /// A member sending as someone else.
    public static let forbidden = RejectionReason(rawValue: "forbidden")
    /// An idempotency key used before for a different request.
    public static let idempotencyKeyReused = RejectionReason(rawValue: "idempotency_key_reused")
}

/// What the intake decided about one submission, as its metrics count it: each message is
/// counted once, by the intake, whichever transport brought it.
public enum IntakeVerdict: Sendable, Equatable {
    /// Committed to the inbox (a copy of an earlier message is not counted).
    case accepted(id: String, source: MessageSource)
    /// Refused, before the inbox or by it.
    case rejected(source: MessageSource, reason: RejectionReason)
}

import FoundationEssentials

/// Who may send: an allow list (when not empty, only those senders), a block list, a
/// per-sender rate limit as a token bucket (kept in the inbox: ``RateBuckets``).
public struct SenderRules: Sendable, Equatable {
    /// Sender ids allowed; empty allows everyone not blocked.
    public var allow: Set<String> = []
    /// Sender ids refused.
    public var block: Set<String> = []
    /// Messages per sender per hour; 0 is no limit. Default 50.
    public var ratePerHour = 50

    /// Rules allowing `allow` (everyone when empty) but `block`, at `ratePerHour` each.
    public init(allow: Set<String> = [], block: Set<String> = [], ratePerHour: Int = 50) {
        self.allow = allow
        self.block = block
        self.ratePerHour = ratePerHour
    }

    /// Why `sender` may not send at all, or nil.
    public func refusal(for sender: String) -> String? {
        if block.contains(sender) { return "sender \(sender) is blocked" }
        if !allow.isEmpty, !allow.contains(sender) { return "sender \(sender) is not on the allow list" }
        return nil
    }
}

import Foundation

/// Who may send: an allow list (when not empty, only those senders), a block list, a
/// per-sender rate limit as a token bucket.
public struct SenderRules: Sendable, Equatable {
    /// Sender ids allowed; empty allows everyone not blocked.
    public var allow: Set<String> = []
    /// Sender ids refused.
    public var block: Set<String> = []
    /// Messages per sender per hour; 0 is no limit. Default 50.
    public var ratePerHour = 50

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

/// Token buckets, one per sender: `capacity` messages at once, refilled at `capacity` an hour.
struct RateLimiter {
    var perHour: Int
    private var buckets: [String: (tokens: Double, at: Date)] = [:]

    init(perHour: Int) { self.perHour = perHour }

    /// Takes a token for `sender` at `now`; nil if allowed, else how long until the next token.
    mutating func take(_ sender: String, now: Date) -> TimeInterval? {
        guard perHour > 0 else { return nil }
        let capacity = Double(perHour)
        let rate = capacity / 3600
        var bucket = buckets[sender] ?? (capacity, now)
        bucket.tokens = min(capacity, bucket.tokens + max(0, now.timeIntervalSince(bucket.at)) * rate)
        bucket.at = now
        defer { buckets[sender] = bucket }
        guard bucket.tokens >= 1 else { return (1 - bucket.tokens) / rate }
        bucket.tokens -= 1
        return nil
    }

    /// Forgets senders whose buckets are full again, so the table does not grow without bound.
    mutating func prune(now: Date) {
        let capacity = Double(perHour)
        buckets = buckets.filter { $0.value.tokens + now.timeIntervalSince($0.value.at) * capacity / 3600 < capacity }
    }
}

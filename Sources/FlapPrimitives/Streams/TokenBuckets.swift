/// A rate per key: at most `burst` at once, refilled at `perSecond`, so a key that keeps
/// asking is held to the rate while one that asks now and then always gets through. At most
/// `keys` keys are remembered; past that, the fullest bucket (the key quiet longest) is dropped,
/// as it would be full again anyway.
public struct TokenBuckets<Key: Hashable & Sendable>: Sendable {
    /// The most a key may take at once.
    public let burst: Double
    /// How fast a key's bucket refills.
    public let perSecond: Double
    /// The most keys remembered.
    public let keys: Int
    private var buckets: [Key: (tokens: Double, at: Double)] = [:]

    /// Buckets of `burst`, refilled at `perSecond`, for at most `keys` keys.
    public init(burst: Int, perSecond: Double, keys: Int = 1_024) {
        self.burst = Double(burst)
        self.perSecond = perSecond
        self.keys = keys
    }

    /// Takes one for `key` at `now` (seconds on any clock that does not go back): nil to go
    /// ahead, else the whole seconds to wait before one is there.
    public mutating func take(_ key: Key, at now: Double) -> Int? {
        var bucket = buckets[key] ?? (burst, now)
        bucket.tokens = min(burst, bucket.tokens + max(0, now - bucket.at) * perSecond)
        bucket.at = now
        guard bucket.tokens >= 1 else {
            buckets[key] = bucket
            return max(1, Int(((1 - bucket.tokens) / perSecond).rounded(.up)))
        }
        bucket.tokens -= 1
        buckets[key] = bucket
        if buckets.count > keys,
            let fullest = buckets.max(by: { $0.value.tokens + (now - $0.value.at) * perSecond < $1.value.tokens + (now - $1.value.at) * perSecond })
        {
            buckets[fullest.key] = nil
        }
        return nil
    }
}

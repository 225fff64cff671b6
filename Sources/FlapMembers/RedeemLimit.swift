import FoundationEssentials

/// Wrong links answered at most 20 in 10 minutes, then refused unread until the oldest of those
/// is 10 minutes old. A link is 256 random bits, so this does not stop guessing that could
/// succeed; it keeps a flood of guesses from costing the board its disk and its time.
struct RedeemLimit {
    static let most = 20
    static let window: TimeInterval = 600
    private var failures: [Date] = []

    /// Seconds to wait before trying again, or nil to go ahead.
    mutating func wait(at now: Date) -> Int? {
        failures.removeAll { now.timeIntervalSince($0) >= Self.window }
        guard failures.count >= Self.most, let oldest = failures.first else { return nil }
        return max(1, Int((Self.window - now.timeIntervalSince(oldest)).rounded(.up)))
    }

    mutating func failed(at now: Date) { failures.append(now) }
}

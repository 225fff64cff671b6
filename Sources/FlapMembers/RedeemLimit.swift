import FoundationEssentials

/// Wrong links answered at most 20 in 10 minutes from one client, then that client's tries are
/// refused unread until the oldest of those is 10 minutes old. A link is 256 random bits, so this
/// does not stop guessing that could succeed; it keeps a flood of guesses from costing the board
/// its disk and its time, and it is counted per client so that a stranger's guesses slow only
/// the stranger: the household's real invitations go on working from their phones.
///
/// A client is a ``ClientNetwork``. At most ``clients`` are remembered; past that, the one whose last
/// wrong guess is oldest is forgotten.
public struct RedeemLimit: Sendable {
    static let most = 20
    static let window: TimeInterval = 600
    static let clients = 4_096
    private var failures: [String: [Date]] = [:]

    /// No wrong tries yet.
    public init() {}

    /// Seconds `client` waits before trying again, or nil to go ahead.
    public mutating func wait(for client: String, at now: Date) -> Int? {
        let key = ClientNetwork.key(client)
        guard var times = failures[key] else { return nil }
        times.removeAll { now.timeIntervalSince($0) >= Self.window }
        failures[key] = times.isEmpty ? nil : times
        guard times.count >= Self.most, let oldest = times.first else { return nil }
        return max(1, Int((Self.window - now.timeIntervalSince(oldest)).rounded(.up)))
    }

    /// Counts a wrong try by `client` at `now`.
    public mutating func failed(for client: String, at now: Date) {
        failures[ClientNetwork.key(client), default: []].append(now)
        guard failures.count > Self.clients else { return }
        failures = failures.filter { $0.value.contains { now.timeIntervalSince($0) < Self.window } }
        while failures.count > Self.clients, let stalest = failures.min(by: { ($0.value.last ?? .distantPast) < ($1.value.last ?? .distantPast) }) {
            failures[stalest.key] = nil
        }
    }
}

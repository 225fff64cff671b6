import FoundationEssentials
import Glibc

/// Wrong links answered at most 20 in 10 minutes from one client, then that client's tries are
/// refused unread until the oldest of those is 10 minutes old. A link is 256 random bits, so this
/// does not stop guessing that could succeed; it keeps a flood of guesses from costing the board
/// its disk and its time, and it is counted per client so that a stranger's guesses slow only
/// the stranger: the household's real invitations go on working from their phones.
///
/// A client is an IPv4 address, or an IPv6 /64 (one network: a host there has as many
/// addresses as it likes). At most ``clients`` are remembered; past that, the one whose last
/// wrong guess is oldest is forgotten.
struct RedeemLimit {
    static let most = 20
    static let window: TimeInterval = 600
    static let clients = 4_096
    private var failures: [String: [Date]] = [:]

    /// Seconds `client` waits before trying again, or nil to go ahead.
    mutating func wait(for client: String, at now: Date) -> Int? {
        let key = Self.key(client)
        guard var times = failures[key] else { return nil }
        times.removeAll { now.timeIntervalSince($0) >= Self.window }
        failures[key] = times.isEmpty ? nil : times
        guard times.count >= Self.most, let oldest = times.first else { return nil }
        return max(1, Int((Self.window - now.timeIntervalSince(oldest)).rounded(.up)))
    }

    mutating func failed(for client: String, at now: Date) {
        failures[Self.key(client), default: []].append(now)
        guard failures.count > Self.clients else { return }
        failures = failures.filter { $0.value.contains { now.timeIntervalSince($0) < Self.window } }
        while failures.count > Self.clients, let stalest = failures.min(by: { ($0.value.last ?? .distantPast) < ($1.value.last ?? .distantPast) }) {
            failures[stalest.key] = nil
        }
    }

    /// An IPv4 address as it is; an IPv6 address as its /64 (an IPv4-mapped one as its IPv4).
    static func key(_ address: String) -> String {
        var bytes = [UInt8](repeating: 0, count: 16)
        guard address.contains(":"), inet_pton(AF_INET6, address, &bytes) == 1 else { return address }
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
            return bytes[12...].map(String.init).joined(separator: ".")
        }
        return bytes[0..<8].map { String($0, radix: 16) }.joined(separator: ":") + "::/64"
    }
}

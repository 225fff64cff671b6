import Synchronization

/// How a port's connections are shared, so that no client holds the household out by being
/// chatty (256 keep-alive connections sending `/healthz` every second once did, from one device
/// with no key, and every owner request was answered 503).
struct ConnectionShare: Sendable {
    /// Connections served at once.
    var limit: Int
    /// Of those, how many only the household's (the owner's, a member's) may take: anyone else
    /// holds at most `limit - reserved`.
    var reserved: Int
    /// Connections one client network (an IPv4 address, an IPv6 /64) may hold before any of its
    /// requests has said whose it is.
    var unauthenticatedPerClient: Int
    /// How long a connection that has not said whose it is stays open: its next answer past this
    /// age closes it.
    var unauthenticatedLifetime: Duration
    /// Connections over the limit that may wait at once for their request head.
    var lateLimit: Int
    /// How long a new connection has to send its first request before it may be replaced.
    var grace: Duration
}

/// Who holds a connection, for sharing a port's capacity.
enum ConnectionHolder: Sendable, Equatable {
    /// Nothing said yet: no request, or only requests anyone may make (the page, /healthz).
    case unknown
    /// A request is being answered that has not said whose it is (yet).
    case asking
    /// The owner or a member: always served.
    case household
    /// The viewer key (dashboards), a webhook's own key, a wrong key.
    case other
}

/// The connections a port serves now, and those over the limit waiting to be answered 503.
final class ConnectionCount: Sendable {
    private struct Entry {
        let channel: any ClosableChannel
        let client: String
        let opened: ContinuousClock.Instant
        /// Since when it has said nothing: when it came, or when its last answer ended.
        var since: ContinuousClock.Instant
        /// When a request on it last said it was the household's.
        var authenticated: ContinuousClock.Instant?
        /// Served (counted against the limit), or late: over the limit, not yet let in.
        var served: Bool
        var holder = ConnectionHolder.unknown
        /// The key its event stream was opened with, when it carries one.
        var stream: String?

        var unauthenticated: Bool { holder == .unknown || holder == .asking }
    }

    private struct State {
        var entries: [UInt64: Entry] = [:]
        /// Late connections waiting for their request head, oldest first.
        var waiting: [UInt64] = []
        var streams: [String: Int] = [:]

        func served(where condition: (Entry) -> Bool = { _ in true }) -> Int {
            entries.values.reduce(0) { $0 + ($1.served && condition($1) ? 1 : 0) }
        }

        /// Whether one more connection held by someone other than the household fits.
        func roomForOthers(_ share: ConnectionShare) -> Bool {
            served() < share.limit && served(where: { $0.holder != .household }) < share.limit - share.reserved
        }
    }

    private let open = Mutex(State())
    let share: ConnectionShare
    var limit: Int { share.limit }

    init(_ share: ConnectionShare) { self.share = share }

    /// Counts connection `id` from `client` in: served while there is room for a connection
    /// that has not said whose it is, else late (false); a late one past `lateLimit` closes the
    /// one that has waited longest.
    func enter(_ id: UInt64, _ channel: any ClosableChannel, client: String) -> Bool {
        let (served, evicted) = open.withLock { open -> (Bool, (any ClosableChannel)?) in
            let now = ContinuousClock.now
            let fromClient = open.served { $0.unauthenticated && $0.client == client }
            let served = open.roomForOthers(share) && fromClient < share.unauthenticatedPerClient
            open.entries[id] = Entry(channel: channel, client: client, opened: now, since: now, served: served)
            if served { return (true, nil) }
            open.waiting.append(id)
            guard open.waiting.count > share.lateLimit else { return (false, nil) }
            return (false, open.entries[open.waiting.removeFirst()]?.channel)
        }
        evicted?.closeConnection()
        return served
    }

    func leave(_ id: UInt64) {
        open.withLock { open in
            guard let entry = open.entries.removeValue(forKey: id) else { return }
            open.waiting.removeAll { $0 == id }
            if let key = entry.stream { open.streams[key, default: 1] -= 1 }
        }
    }

    func isServed(_ id: UInt64) -> Bool { open.withLock { $0.entries[id]?.served ?? false } }

    /// A served connection's request head came: while it is answered it is not replaced.
    func asking(_ id: UInt64) {
        open.withLock { open in
            if open.entries[id]?.holder == .unknown { open.entries[id]?.holder = .asking }
        }
    }

    /// Whether the answer now being written on `id` is the last: the connection has not said
    /// whose it is and is older than the share's lifetime for such connections.
    func closesAfterAnswer(_ id: UInt64) -> Bool {
        open.withLock { open in
            guard let entry = open.entries[id], entry.unauthenticated else { return false }
            return entry.opened.duration(to: .now) > share.unauthenticatedLifetime
        }
    }

    /// A served connection's answer ended: if its request said nothing of whose it is, it is an
    /// unknown client's again, silent from now.
    func answered(served id: UInt64) {
        open.withLock { open in
            guard open.entries[id] != nil else { return }
            if open.entries[id]?.holder == .asking { open.entries[id]?.holder = .unknown }
            open.entries[id]?.since = .now
        }
    }

    /// A late connection sent its head in time: it no longer waits for one.
    func answered(_ id: UInt64) {
        open.withLock { $0.waiting.removeAll { $0 == id } }
    }

    /// Says whose connection `id` is. A late one of the household's is let in while the port has
    /// room (the reserved connections are theirs), else in the place of another (``victim``),
    /// which is closed; a late one of anyone else's while the others' share has room. False
    /// when it stays late.
    func held(_ id: UInt64, by holder: ConnectionHolder) -> Bool {
        let (admitted, replaced) = open.withLock { open -> (Bool, (any ClosableChannel)?) in
            guard var entry = open.entries[id] else { return (false, nil) }
            let now = ContinuousClock.now
            entry.holder = holder
            if holder == .household { entry.authenticated = now }
            defer { open.entries[id] = entry }
            if entry.served { return (true, nil) }
            var replaced: (any ClosableChannel)?
            switch holder {
            case .household where open.served() < share.limit:
                break
            case .household:
                guard let victim = Self.victim(among: open.entries, now: now, grace: share.grace) else { return (false, nil) }
                // The replaced one no longer counts; closing it will not count it out again.
                open.entries[victim]?.served = false
                replaced = open.entries[victim]?.channel
            case .other where open.roomForOthers(share):
                break
            default:
                return (false, nil)
            }
            entry.served = true
            open.waiting.removeAll { $0 == id }
            return (true, replaced)
        }
        replaced?.closeConnection()
        return admitted
    }

    /// The connection the household's takes the place of, never one being answered: first one
    /// that has said nothing for `grace`, then a viewer's or a webhook's, then a chatty one that
    /// has said nothing of whose it is, then the household's least recently authenticated.
    private static func victim(among entries: [UInt64: Entry], now: ContinuousClock.Instant, grace: Duration) -> UInt64? {
        func rank(_ entry: Entry) -> (Int, ContinuousClock.Instant) {
            switch entry.holder {
            case .unknown where entry.since.duration(to: now) > grace: (0, entry.since)
            case .other: (1, entry.opened)
            case .unknown: (2, entry.since)
            default: (3, entry.authenticated ?? entry.opened)
            }
        }
        return entries.filter { $0.value.served && $0.value.holder != .asking }
            .min { rank($0.value) < rank($1.value) }?.key
    }

    /// Opens an event stream on connection `id` with `key`: false when the key holds `most` already.
    func openStream(_ id: UInt64, key: String, most: Int) -> Bool {
        open.withLock { open in
            guard open.entries[id] != nil, open.entries[id]?.stream == nil else { return true }
            guard open.streams[key, default: 0] < most else { return false }
            open.streams[key, default: 0] += 1
            open.entries[id]?.stream = key
            return true
        }
    }
}

/// What the count closes: a connection (a NIO channel; a stand-in in tests).
protocol ClosableChannel: Sendable {
    func closeConnection()
}

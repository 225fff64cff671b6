import HTTPTypes
import NIOCore
import NIOHTTPTypes
import Synchronization

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
        let channel: any Channel
        /// When it came, in order of arrival.
        let order: UInt64
        /// Since when it has said nothing: when it came, or when its last answer ended.
        var since: ContinuousClock.Instant
        /// Served (counted against the limit), or late: over the limit, not yet let in.
        var served: Bool
        var holder = ConnectionHolder.unknown
        /// The key its event stream was opened with, when it carries one.
        var stream: String?
    }

    private struct State {
        var entries: [UInt64: Entry] = [:]
        var arrivals: UInt64 = 0
        var served = 0
        /// Late connections waiting for their request head, oldest first.
        var waiting: [UInt64] = []
        var streams: [String: Int] = [:]
    }

    private let open = Mutex(State())
    let limit: Int
    let lateLimit: Int
    /// How long a new connection has to send its first request before it may be replaced.
    let grace: Duration

    init(limit: Int, lateLimit: Int, grace: Duration = .seconds(2)) {
        self.limit = limit
        self.lateLimit = lateLimit
        self.grace = grace
    }

    /// Counts connection `id` in: served while there is room, else late (false); a late one past
    /// `lateLimit` closes the one that has waited longest.
    func enter(_ id: UInt64, _ channel: any Channel) -> Bool {
        let (served, evicted) = open.withLock { open -> (Bool, (any Channel)?) in
            let served = open.served < limit
            open.arrivals += 1
            open.entries[id] = Entry(channel: channel, order: open.arrivals, since: .now, served: served)
            if served {
                open.served += 1
                return (true, nil)
            }
            open.waiting.append(id)
            guard open.waiting.count > lateLimit else { return (false, nil) }
            return (false, open.entries[open.waiting.removeFirst()]?.channel)
        }
        evicted?.close(promise: nil)
        return served
    }

    func leave(_ id: UInt64) {
        open.withLock { open in
            guard let entry = open.entries.removeValue(forKey: id) else { return }
            if entry.served { open.served -= 1 }
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

    /// Says whose connection `id` is. A late one of the household's is let in in the place of
    /// the oldest connection held by someone else (an unknown client's that has said nothing
    /// for `grace`, else a viewer's), which is closed; false when it stays late (not the
    /// household's, or nobody to replace).
    func held(_ id: UInt64, by holder: ConnectionHolder) -> Bool {
        let (admitted, replaced) = open.withLock { open -> (Bool, (any Channel)?) in
            guard var entry = open.entries[id] else { return (false, nil) }
            entry.holder = holder
            defer { open.entries[id] = entry }
            if entry.served { return (true, nil) }
            guard holder == .household else { return (false, nil) }
            // Not one that has only just connected: its request may be on its way.
            let now = ContinuousClock.now
            let candidates = open.entries.filter { entry in
                entry.value.served && (entry.value.holder == .other || (entry.value.holder == .unknown && entry.value.since.duration(to: now) > grace))
            }
            guard let victim = candidates.min(by: { (Self.rank($0.value.holder), $0.value.order) < (Self.rank($1.value.holder), $1.value.order) }) else {
                return (false, nil)
            }
            // The replaced one no longer counts; closing it will not count it out again.
            open.entries[victim.key]?.served = false
            entry.served = true
            open.waiting.removeAll { $0 == id }
            return (true, victim.value.channel)
        }
        replaced?.close(promise: nil)
        return admitted
    }

    /// Silent unknown clients are replaced before viewers: a slow or idle client has said nothing.
    private static func rank(_ holder: ConnectionHolder) -> Int { holder == .unknown ? 0 : 1 }

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

/// Lets a connection through when its port has room. Otherwise its request head decides: the
/// household's (a credential, on a port shared by role) goes on to ``Authentication``, which
/// lets it in in another's place or refuses it; `/healthz` is served all the same; anything else
/// is answered 503. A late connection is closed after its one answer unless it was let in.
final class ConnectionGate: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let count: ConnectionCount
    private let shares: ConnectionShares?
    private let lateHeadTimeout: TimeAmount
    private var id: UInt64 = 0
    private var entered = false
    /// Over the limit: the request being let through (/healthz, or one Authentication decides);
    /// the connection is closed once it is answered, unless it was let in meanwhile.
    private var passing = false
    private var deadline: Scheduled<Void>?

    init(count: ConnectionCount, shares: ConnectionShares?, lateHeadTimeout: TimeAmount) {
        self.count = count
        self.shares = shares
        self.lateHeadTimeout = lateHeadTimeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let channel = context.channel
        id = UInt64(UInt(bitPattern: ObjectIdentifier(channel)))
        entered = true
        shares?.register(id, count)
        if !count.enter(id, channel) {
            deadline = context.eventLoop.scheduleTask(in: lateHeadTimeout) { channel.close(promise: nil) }
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        guard entered else { return }
        entered = false
        count.leave(id)
        shares?.unregister(id)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var part = unwrapInboundIn(data)
        guard case .head(var head) = part else {
            if passing || count.isServed(id) { context.fireChannelRead(data) }
            return
        }
        // The connection's id, for Authentication to say whose it is (one a client sent is replaced).
        head.headerFields[ConnectionShares.connectionField] = shares == nil ? nil : String(id)
        part = .head(head)
        if count.isServed(id) {
            count.asking(id)
            return context.fireChannelRead(wrapInboundOut(part))
        }
        deadline?.cancel()
        if shares != nil, ConnectionShares.mayBeHousehold(head) {
            // Still counted among the late (at most `lateLimit`) until Authentication lets it in.
            passing = true
            context.fireChannelRead(wrapInboundOut(part))
            return
        }
        count.answered(id)
        if head.path == "/healthz" {
            passing = true
            context.fireChannelRead(wrapInboundOut(part))
        } else {
            refuse(context: context)
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .end = unwrapOutboundIn(data) else { return context.write(data, promise: promise) }
        guard passing, !count.isServed(id) else {
            count.answered(served: id)
            return context.write(data, promise: promise)
        }
        let channel = context.channel
        context.writeAndFlush(data).whenComplete { _ in channel.close(promise: nil) }
        promise?.succeed()
    }

    private func refuse(context: ChannelHandlerContext) {
        let body = #"{"error":"flapd is serving as many connections as it takes (\#(count.limit)); try again shortly"}"#
        var fields = HTTPFields()
        fields[.contentType] = "application/json; charset=utf-8"
        fields[.contentLength] = "\(body.utf8.count)"
        fields[.connection] = "close"
        fields[.retryAfter] = "2"
        context.write(wrapOutboundOut(.head(HTTPResponse(status: .serviceUnavailable, headerFields: fields))), promise: nil)
        context.write(wrapOutboundOut(.body(context.channel.allocator.buffer(string: body))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }
}

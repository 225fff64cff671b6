import HTTPTypes
import Hummingbird
import HummingbirdCore
import NIOCore
import NIOHTTPTypes
import Synchronization

/// How each of flapd's ports guards itself against slow, idle, vanished and too many
/// connections, sized for a Pi with 512 MB:
/// - a connection that sends no complete request head, or nothing after its last answer, for
///   `idleTimeout` is closed (a slow-header client, an idle keep-alive; an event stream being
///   answered is not idle);
/// - a request body must have arrived within `bodyTimeout`, or the answer is 408;
/// - at most `maximumConnections` are served at once; one more is read only as far as its
///   request head, within `lateHeadTimeout`, and answered 503 (or, for `/healthz`, served) and
///   closed; at most `maximumLate` such wait at once, and one more closes the one that has
///   waited longest. A flood then holds a few hundred connections, not thousands, and their
///   memory with them (each is a few tens of KiB), while a health check, which sends its
///   request as soon as it connects, is still answered.
public struct ConnectionLimits: Sendable {
    public var idleTimeout: Duration
    public var bodyTimeout: Duration
    public var maximumConnections: Int
    public var lateHeadTimeout: Duration
    public var maximumLate: Int

    /// The defaults: 15 s idle, 10 s for a body, 256 connections a port, 1 s for the head of one
    /// over the limit and 64 of those at once. A page holds one or two connections and its event
    /// stream another; 256 is a household's worth many times over.
    public init(idleTimeout: Duration = .seconds(15), bodyTimeout: Duration = .seconds(10), maximumConnections: Int = 256,
                lateHeadTimeout: Duration = .seconds(1), maximumLate: Int = 64) {
        self.idleTimeout = idleTimeout
        self.bodyTimeout = bodyTimeout
        self.maximumConnections = maximumConnections
        self.lateHeadTimeout = lateHeadTimeout
        self.maximumLate = maximumLate
    }

    /// How a port's requests arrive.
    public enum Transport: Sendable {
        /// Plain HTTP; with `redirectingPagesTo`, pages asked for by other machines are sent to
        /// that HTTPS port by one of its names (nil until it is bound).
        case plain(redirectingPagesTo: (@Sendable () -> HTTPSRedirectTarget?)? = nil)
        /// Inside TLS: answers may set cookies for HTTPS only.
        case tls
    }

    /// The HTTP/1.1 server of one port with these limits (each port counts its own connections).
    public func server(_ transport: Transport = .plain()) -> HTTPServerBuilder {
        let count = ConnectionCount(limit: maximumConnections, lateLimit: maximumLate)
        let lateHeadTimeout = TimeAmount.nanoseconds(Int64(lateHeadTimeout / .nanoseconds(1)))
        return .http1(configuration: .init(
            additionalChannelHandlers: [ConnectionGate(count: count, lateHeadTimeout: lateHeadTimeout)] + Self.handlers(transport),
            idleTimeout: .nanoseconds(Int64(idleTimeout / .nanoseconds(1)))))
    }

    private static func handlers(_ transport: Transport) -> [any RemovableChannelHandler] {
        switch transport {
        case .plain(let redirect?): [TransportMark(secure: false), PlainHTTPRedirect(target: redirect)]
        case .plain(nil): [TransportMark(secure: false)]
        case .tls: [TransportMark(secure: true)]
        }
    }
}

/// The connections a port serves now, and those over the limit waiting to be answered 503.
final class ConnectionCount: Sendable {
    private struct State {
        var served = 0
        /// Waiting for their request head, oldest first.
        var late: [(id: ObjectIdentifier, channel: any Channel)] = []
    }
    private let open = Mutex(State())
    let limit: Int
    let lateLimit: Int

    init(limit: Int, lateLimit: Int) {
        self.limit = limit
        self.lateLimit = lateLimit
    }

    enum Admission { case served, late }

    /// Counts `channel` in: served while there is room, else late; a late one past `lateLimit`
    /// closes the one that has waited longest.
    func enter(_ channel: any Channel) -> Admission {
        let (admission, evicted) = open.withLock { open -> (Admission, (any Channel)?) in
            if open.served < limit {
                open.served += 1
                return (.served, nil)
            }
            open.late.append((ObjectIdentifier(channel), channel))
            return (.late, open.late.count > lateLimit ? open.late.removeFirst().channel : nil)
        }
        evicted?.close(promise: nil)
        return admission
    }

    func leave(_ channel: any Channel, _ admission: Admission) {
        open.withLock { open in
            switch admission {
            case .served: open.served -= 1
            case .late: open.late.removeAll { $0.id == ObjectIdentifier(channel) }
            }
        }
    }

    /// A late connection sent its head in time: it no longer waits (it is answered and closed).
    func answered(_ channel: any Channel) {
        open.withLock { $0.late.removeAll { $0.id == ObjectIdentifier(channel) } }
    }
}

/// Lets a connection through when its port has room; otherwise answers its request 503 (serving
/// `/healthz` all the same) and closes it.
final class ConnectionGate: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let count: ConnectionCount
    private let lateHeadTimeout: TimeAmount
    private var admission: ConnectionCount.Admission?
    private var counted: Bool { admission == .served }
    /// Over the limit: the request being let through is /healthz (closed once answered).
    private var passingHealth = false
    private var refusing = false
    private var deadline: Scheduled<Void>?

    init(count: ConnectionCount, lateHeadTimeout: TimeAmount) {
        self.count = count
        self.lateHeadTimeout = lateHeadTimeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let channel = context.channel
        admission = count.enter(channel)
        if admission == .late {
            deadline = context.eventLoop.scheduleTask(in: lateHeadTimeout) { channel.close(promise: nil) }
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        if let admission { count.leave(context.channel, admission) }
        admission = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !counted else { return context.fireChannelRead(data) }
        let part = unwrapInboundIn(data)
        if case .head(let head) = part {
            deadline?.cancel()
            count.answered(context.channel)
            if head.path == "/healthz" {
                passingHealth = true
            } else {
                refusing = true
                refuse(context: context)
            }
        }
        if passingHealth { context.fireChannelRead(data) }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let part = unwrapOutboundIn(data)
        guard passingHealth, case .end = part else { return context.write(data, promise: promise) }
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

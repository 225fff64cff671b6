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
///   closed, so a flood costs a descriptor for two seconds, not for as long as it likes.
public struct ConnectionLimits: Sendable {
    public var idleTimeout: Duration
    public var bodyTimeout: Duration
    public var maximumConnections: Int
    public var lateHeadTimeout: Duration

    /// The defaults: 15 s idle, 10 s for a body, 256 connections a port, 2 s for the head of one
    /// over the limit. A page holds one or two connections and its event stream another; 256 is
    /// a household's worth many times over, and at a few tens of KiB each stays within tens of MiB.
    public init(idleTimeout: Duration = .seconds(15), bodyTimeout: Duration = .seconds(10), maximumConnections: Int = 256,
                lateHeadTimeout: Duration = .seconds(2)) {
        self.idleTimeout = idleTimeout
        self.bodyTimeout = bodyTimeout
        self.maximumConnections = maximumConnections
        self.lateHeadTimeout = lateHeadTimeout
    }

    /// The HTTP/1.1 server of one port with these limits (each port counts its own connections).
    public func server() -> HTTPServerBuilder {
        let count = ConnectionCount(limit: maximumConnections)
        let lateHeadTimeout = TimeAmount.nanoseconds(Int64(lateHeadTimeout / .nanoseconds(1)))
        return .http1(configuration: .init(
            additionalChannelHandlers: [ConnectionGate(count: count, lateHeadTimeout: lateHeadTimeout)],
            idleTimeout: .nanoseconds(Int64(idleTimeout / .nanoseconds(1)))))
    }
}

/// The connections a port serves now.
final class ConnectionCount: Sendable {
    private let open = Mutex(0)
    let limit: Int

    init(limit: Int) { self.limit = limit }

    /// Counts one more, unless the limit is reached; whether it was counted.
    func enter() -> Bool {
        open.withLock { open in
            guard open < limit else { return false }
            open += 1
            return true
        }
    }

    func leave() { open.withLock { $0 -= 1 } }
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
    private var counted = false
    /// Over the limit: the request being let through is /healthz (closed once answered).
    private var passingHealth = false
    private var refusing = false
    private var deadline: Scheduled<Void>?

    init(count: ConnectionCount, lateHeadTimeout: TimeAmount) {
        self.count = count
        self.lateHeadTimeout = lateHeadTimeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        counted = count.enter()
        guard !counted else { return }
        let channel = context.channel
        deadline = context.eventLoop.scheduleTask(in: lateHeadTimeout) { channel.close(promise: nil) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        if counted {
            counted = false
            count.leave()
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !counted else { return context.fireChannelRead(data) }
        let part = unwrapInboundIn(data)
        if case .head(let head) = part {
            deadline?.cancel()
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

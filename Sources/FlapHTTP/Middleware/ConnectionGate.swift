import FlapMembers
import HTTPTypes
import NIOCore
import NIOHTTPTypes
import Synchronization

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
    /// Its answer now being written is its last.
    private var closing = false

    init(count: ConnectionCount, shares: ConnectionShares?, lateHeadTimeout: TimeAmount) {
        self.count = count
        self.shares = shares
        self.lateHeadTimeout = lateHeadTimeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let channel = context.channel
        id = ConnectionID(channel).value
        entered = true
        shares?.register(id, count)
        let client = ClientNetwork.key(channel.remoteAddress?.ipAddress ?? "local")
        if !count.enter(id, NIOConnection(channel: channel), client: client) {
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
        guard case .head(let head) = unwrapInboundIn(data) else {
            if passing || count.isServed(id) { context.fireChannelRead(data) }
            return
        }
        if count.isServed(id) {
            count.asking(id)
            return context.fireChannelRead(data)
        }
        deadline?.cancel()
        if shares != nil, ConnectionShares.mayBeHousehold(head) {
            // Its head came in time: Authentication lets it in, or it is answered and closed.
            count.answered(id)
            passing = true
            context.fireChannelRead(data)
            return
        }
        count.answered(id)
        if head.path == "/healthz" {
            passing = true
            context.fireChannelRead(data)
        } else {
            refuse(context: context)
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head) where !closing && count.closesAfterAnswer(id):
            // A connection that never said whose it is does not live for ever on keep-alive.
            closing = true
            head.headerFields[.connection] = "close"
            return context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .end:
            break
        default:
            return context.write(data, promise: promise)
        }
        if closing {
            let channel = context.channel
            context.writeAndFlush(data).whenComplete { _ in channel.close(promise: nil) }
            promise?.succeed()
            return
        }
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

/// A NIO channel as the count closes it.
struct NIOConnection: ClosableChannel {
    let channel: any Channel
    func closeConnection() { channel.close(promise: nil) }
}

import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Every request head on every port: its scheme set from the connection it came on (`https` on
/// the HTTPS port, else `http`, whatever an absolute-form target said), so answers set cookies a
/// browser sends over HTTPS only; and a request with more than one Host header answered 400 and
/// closed (RFC 9112 §3.2: the first would name the host for one check and another could be read
/// elsewhere), and one longer than any host name answered 431. Hummingbird's codec calls every
/// request `http`, not knowing the TLS handler before it.
final class TransportMark: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundOut = HTTPResponsePart

    /// A DNS name (253), a colon and a port: no host is longer.
    static let longestHost = 260
    private let secure: Bool
    private var refusing = false

    init(secure: Bool) { self.secure = secure }

    func handlerAdded(context: ChannelHandlerContext) {
        AbsoluteFormTarget.install(in: context)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data) else {
            if !refusing { context.fireChannelRead(data) }
            return
        }
        // The first Host is the request's authority; any left among the fields is a second one.
        if head.headerFields[.hostField] != nil {
            return refuse(.badRequest, #"{"error":"more than one Host header: a request names one host"}"#, context: context)
        }
        if let authority = head.authority, authority.utf8.count > Self.longestHost {
            return refuse(
                .requestHeaderFieldsTooLarge,
                #"{"error":"the Host header is \#(authority.utf8.count) bytes long; a host name and port take at most \#(Self.longestHost)"}"#,
                context: context)
        }
        head.scheme = secure ? "https" : "http"
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    private func refuse(_ status: HTTPResponse.Status, _ body: String, context: ChannelHandlerContext) {
        refusing = true
        var fields = HTTPFields()
        fields[.contentType] = "application/json; charset=utf-8"
        fields[.contentLength] = "\(body.utf8.count)"
        fields[.connection] = "close"
        context.write(wrapOutboundOut(.head(HTTPResponse(status: status, headerFields: fields))), promise: nil)
        context.write(wrapOutboundOut(.body(context.channel.allocator.buffer(string: body))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }
}

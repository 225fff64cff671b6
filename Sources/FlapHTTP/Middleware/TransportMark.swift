import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Every request head on every port: a client's own transport mark removed and, on the HTTPS
/// port, the mark set, so answers set cookies a browser sends over HTTPS only; and a request with
/// more than one Host header answered 400 and closed (RFC 9112 §3.2: the first would name the
/// host for one check and another could be read elsewhere), and one longer than any host name
/// answered 431.
final class TransportMark: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundOut = HTTPResponsePart

    static let name = HTTPField.Name("Flapd-Transport")!
    /// The client's address, as the connection says (never as the client says: one it sent is
    /// replaced), for limits counted per client.
    static let peer = HTTPField.Name("Flapd-Peer")!
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
        if head.headerFields[HTTPField.Name("Host")!] != nil {
            return refuse(.badRequest, #"{"error":"more than one Host header: a request names one host"}"#, context: context)
        }
        if let authority = head.authority, authority.utf8.count > Self.longestHost {
            return refuse(
                .requestHeaderFieldsTooLarge,
                #"{"error":"the Host header is \#(authority.utf8.count) bytes long; a host name and port take at most \#(Self.longestHost)"}"#,
                context: context)
        }
        head.headerFields[Self.name] = secure ? "tls" : nil
        head.headerFields[Self.peer] = context.channel.remoteAddress?.ipAddress ?? "local"
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

import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1

/// A request whose target is in absolute form (`GET http://name/path`) is for the host the target
/// names, whatever its `Host` says: RFC 9112 §3.2.2 has a server ignore `Host` then. Hummingbird's
/// codec keeps only the target's path and takes the authority from `Host`, so a request naming
/// another machine in its target and `localhost` in `Host` would pass every check of the host
/// (DNS rebinding into `/mcp`). This handler sits before that codec and makes `Host` the target's
/// authority, so the checks see the host the request is really for; a target whose authority
/// cannot be read is answered 400.
final class AbsoluteFormTarget: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private var refusing = false

    /// Puts one before the codec of `context`'s pipeline (the additional handlers Hummingbird
    /// lets a server add come after it).
    static func install(in context: ChannelHandlerContext) {
        let pipeline = context.pipeline.syncOperations
        guard let codec = try? pipeline.handler(type: HTTP1ToHTTPServerCodec.self) else { return }
        try? pipeline.addHandler(AbsoluteFormTarget(), position: .before(codec))
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data) else {
            if !refusing { context.fireChannelRead(data) }
            return
        }
        if head.uri.hasPrefix("/") || head.uri == "*" {
            context.fireChannelRead(data)
            return
        }
        guard let (authority, path) = Self.split(head.uri) else {
            refusing = true
            return refuse(context)
        }
        head.headers.replaceOrAdd(name: "Host", value: authority)
        head.uri = path
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    /// `http://authority/path?query` → the authority and the path with its query.
    static func split(_ target: String) -> (authority: String, path: String)? {
        let lowered = target.lowercased()
        guard let scheme = ["http://", "https://"].first(where: lowered.hasPrefix) else { return nil }
        let rest = target.dropFirst(scheme.count)
        let end = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        let authority = rest[..<end]
        guard !authority.isEmpty, !authority.contains("@"), !authority.contains(where: { $0 == " " || $0.isNewline }) else { return nil }
        var path = String(rest[end...].prefix { $0 != "#" })
        if !path.hasPrefix("/") { path = "/" + path }
        return (String(authority), path)
    }

    private func refuse(_ context: ChannelHandlerContext) {
        let body = #"{"error":"the request's target is neither a path nor an http or https URL with a host"}"#
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json; charset=utf-8")
        headers.add(name: "Content-Length", value: "\(body.utf8.count)")
        headers.add(name: "Connection", value: "close")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .badRequest, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: body)))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }
}

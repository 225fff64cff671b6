import FlapCore
import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// On the native API's plain-HTTP port: a page asked for by another machine is sent to the HTTPS
/// port (a page there is a secure context: its app installs, its board works offline, its cookie
/// never crosses the network in the clear). Loopback clients (flapctl, local tools) are served as
/// they are, and so is the API (`/v1`, `/mcp`, `/metrics`, `/healthz`) from anywhere, for scripts
/// and Home Assistant; `/ca.crt` and `/install` stay on plain HTTP, as a phone must fetch the
/// authority before it can trust the HTTPS port.
final class PlainHTTPRedirect: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundOut = HTTPResponsePart

    private let httpsPort: @Sendable () -> Int?
    /// The request being answered here, whose body and end are dropped.
    private var swallowing = false

    static let servedPlain = ["/v1", "/mcp", "/metrics", "/healthz", "/ca.crt", "/install"]

    init(httpsPort: @escaping @Sendable () -> Int?) {
        self.httpsPort = httpsPort
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            if let location = Self.location(for: head, from: context.channel.remoteAddress, httpsPort: httpsPort()) {
                swallowing = true
                redirect(context: context, to: location)
            } else {
                swallowing = false
                context.fireChannelRead(data)
            }
        case .body, .end:
            if !swallowing { context.fireChannelRead(data) }
        }
    }

    /// Where `head` should go instead, or nil to serve it here.
    static func location(for head: HTTPRequest, from remote: SocketAddress?, httpsPort: Int?) -> String? {
        guard let httpsPort, [.get, .head].contains(head.method), let path = head.path, !isLoopback(remote) else { return nil }
        let bare = path.split(separator: "?", maxSplits: 1).first.map(String.init) ?? path
        guard !servedPlain.contains(where: { bare == $0 || bare.hasPrefix($0 + "/") }) else { return nil }
        guard let host = head.authority.flatMap(HostHeader.host(of:)) else { return nil }
        return "https://\(host):\(httpsPort)\(path)"
    }

    static func isLoopback(_ address: SocketAddress?) -> Bool {
        guard let ip = address?.ipAddress else { return true }  // a Unix socket is this machine
        return ip.hasPrefix("127.") || ip == "::1" || ip.hasPrefix("::ffff:127.")
    }

    private func redirect(context: ChannelHandlerContext, to location: String) {
        var fields = HTTPFields()
        fields[.location] = location
        fields[.contentLength] = "0"
        fields[.cacheControl] = "no-store"
        context.write(wrapOutboundOut(.head(HTTPResponse(status: .permanentRedirect, headerFields: fields))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
}

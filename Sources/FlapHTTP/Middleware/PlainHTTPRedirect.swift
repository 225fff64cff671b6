import FlapCore
import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// On the native API's plain-HTTP port: a page asked for by another machine is sent to the HTTPS
/// port (a page there is a secure context: its app installs, its board works offline, its cookie
/// never crosses the network in the clear). Loopback clients (flapctl, local tools) are served as
/// they are, and so is the API (`/v1`, `/mcp`, `/metrics`, `/healthz`) from anywhere, for scripts
/// and Home Assistant; `/ca.crt` and `/install` stay on plain HTTP, as a phone must fetch the
/// authority before it can trust the HTTPS port, and so does the TV's view (`/tv`).
///
/// The redirect names the board only by a name it has (its certificate's names), else by the
/// address the client reached: a Host header is the client's to write, and a Location built
/// from it would send a phone wherever a forged request said.
final class PlainHTTPRedirect: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundOut = HTTPResponsePart

    private let target: @Sendable () -> HTTPSRedirectTarget?
    /// The request being answered here, whose body and end are dropped.
    private var swallowing = false

    static let servedPlain = ["/v1", "/mcp", "/metrics", "/healthz", "/ca.crt", "/install"] + tvView
    /// The TV's view and what it loads: a TV's browser cannot be made to trust the board's own
    /// authority, and the view holds only the viewer key, which reads the board and nothing else.
    static let tvView = [
        "/tv", "/web/tv.js", "/web/tv.css", "/web/clacks.js", "/web/api.js", "/web/outbox.js", "/web/board.js", "/web/style.css", "/web/glyphs.json",
        "/favicon.ico"
    ]

    init(target: @escaping @Sendable () -> HTTPSRedirectTarget?) {
        self.target = target
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            if let location = Self.location(for: head, from: context.channel.remoteAddress, to: context.channel.localAddress, target: target()) {
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

    /// Where `head` should go instead, or nil to serve it here: the HTTPS port, by the name the
    /// client used when the certificate has it, else by the address it reached (`local`).
    static func location(for head: HTTPRequest, from remote: SocketAddress?, to local: SocketAddress?, target: HTTPSRedirectTarget?) -> String? {
        guard let target, [.get, .head].contains(head.method), let path = head.path, !isLoopback(remote) else { return nil }
        let bare = path.split(separator: "?", maxSplits: 1).first.map(String.init) ?? path
        guard !servedPlain.contains(where: { bare == $0 || bare.hasPrefix($0 + "/") }) else { return nil }
        let asked = head.authority.flatMap(HostHeader.host(of:))
        let host: String
        if let asked, target.names.contains(where: { $0.caseInsensitiveCompare(asked) }) {
            host = asked
        } else if var address = local?.ipAddress {
            // An IPv4 client of a dual-stack socket reached an IPv4 address.
            if address.hasPrefix("::ffff:"), address.contains(".") { address.removeFirst(7) }
            host = address.contains(":") ? "[\(address)]" : address
        } else {
            return nil
        }
        return "https://\(host):\(target.port)\(path)"
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

/// Where pages on the plain-HTTP port are sent: the HTTPS port and the names its certificate has.
public struct HTTPSRedirectTarget: Sendable {
    /// The HTTPS port.
    public var port: Int
    /// Names and addresses the certificate was issued for (`board.home`, `pi.local`, `192.168.1.20`).
    public var names: [String]

    /// Redirects to `port` under one of `names`.
    public init(port: Int, names: [String]) {
        self.port = port
        self.names = names
    }
}

extension String {
    fileprivate func caseInsensitiveCompare(_ other: String) -> Bool { lowercased() == other.lowercased() }
}

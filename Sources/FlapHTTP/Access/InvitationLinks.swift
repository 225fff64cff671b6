import FlapCore
import FlapMembers
import FoundationEssentials
import Hummingbird

#if canImport(Glibc)
    import Glibc
#endif

/// A link as the API shows it: its URL (the token in its fragment), when it stops working, its
/// QR code, and the other names the board's certificate answers to (a phone may be given the
/// link with any of them).
struct InvitationView: Encodable {
    var url: String
    var expiresAt: Date
    var qrCode: String?
    var worksUnder: [String]
}

/// Where pairing and invitation links point, the same for flapctl and the page: the name the
/// household chose (`host` in the request, which must be on the certificate), else the first of
/// `[api] tls_names`, else the name the browser used when the certificate has it (never a
/// `Host` the client made up), else the machine's `.local` name, which
/// phones on the network resolve. One name keeps one origin: one install of the app, one set of
/// saved sessions.
public struct InvitationLinks: Sendable {
    /// The machine's host name (links use `<name>.local`).
    public var machineName: String
    /// `[api] tls_names`: how the household reaches the board (`board.home`).
    public var householdNames: [String]
    /// The names and addresses the HTTPS certificate has now.
    public var certificateNames: @Sendable () -> [String]
    /// The HTTPS port, once bound.
    public var httpsPort: @Sendable () -> Int?
    /// The plain port: the TV's link uses it, as a TV's browser cannot be made to trust the board's authority.
    public var plainPort: @Sendable () -> Int?
    /// An SVG QR code of a link, or nil when none can be drawn.
    public var qrCode: @Sendable (String) -> String?

    /// Links to this machine as the household reaches it.
    public init(
        machineName: String, householdNames: [String] = [], certificateNames: @escaping @Sendable () -> [String] = { [] },
        httpsPort: @escaping @Sendable () -> Int?, plainPort: @escaping @Sendable () -> Int? = { nil },
        qrCode: @escaping @Sendable (String) -> String?
    ) {
        self.machineName = machineName
        self.householdNames = householdNames
        self.certificateNames = certificateNames
        self.httpsPort = httpsPort
        self.plainPort = plainPort
        self.qrCode = qrCode
    }

    /// A name the request asked for that a phone could not use.
    struct HostRefused: Error, CustomStringConvertible {
        var description: String
    }

    static func isLoopback(_ host: String) -> Bool {
        let bare = host.filter { $0 != "[" && $0 != "]" }
        if bare == "localhost" || bare.hasPrefix("127.") { return true }
        var v6 = in6_addr()
        return inet_pton(AF_INET6, bare, &v6) == 1 && withUnsafeBytes(of: &v6) { $0.dropLast().allSatisfy { $0 == 0 } && $0.last == 1 }
    }

    /// Addresses as people write them (`fd00::2`, not the certificate's `fd00:0:0:0:0:0:0:2`).
    static func written(_ name: String) -> String {
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, name, &v6) == 1 else { return name.lowercased() }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(AF_INET6, &v6, &text, socklen_t(text.count)) != nil else { return name }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The certificate's names and addresses a phone could use.
    var reachableNames: [String] { certificateNames().filter { !Self.isLoopback($0) }.map(Self.written) }

    func host(for request: Request, asking chosen: String?) throws(HostRefused) -> String {
        let onCertificate = reachableNames
        if let chosen {
            let name = Self.written(chosen.filter { $0 != "[" && $0 != "]" })
            guard !Self.isLoopback(name) else {
                throw HostRefused(description: "\(chosen) reaches only this machine; a phone needs one of: \(onCertificate.joined(separator: ", "))")
            }
            // A certificate of the user's own: its names are all that work. flapd's own lists them too.
            guard onCertificate.isEmpty || onCertificate.contains(name) else {
                throw HostRefused(
                    description:
                        "\(chosen) is not a name the board's certificate has (\(onCertificate.joined(separator: ", "))): add it to [api] tls_names in flapd.toml and restart flapd, or choose one of those"
                )
            }
            return chosen.contains(":") && !chosen.hasPrefix("[") ? "[\(chosen)]" : chosen
        }
        if let first = householdNames.first { return first.contains(":") ? "[\(first)]" : first }
        // The name the browser used, only when the certificate has it: a Host header is the
        // client's to write, and a link to `evil.com` would hand its token to whoever holds that name.
        if let asked = request.head.authority.flatMap(HostHeader.host(of:)), !Self.isLoopback(asked),
            onCertificate.contains(Self.written(asked.filter { $0 != "[" && $0 != "]" }))
        {
            return asked
        }
        let short = machineName.split(separator: ".").first.map(String.init) ?? machineName
        return short + ".local"
    }

    func view(_ invitation: Invitation, for request: Request, host chosen: String? = nil) throws(HostRefused) -> InvitationView {
        let host = try host(for: request, asking: chosen)
        let url = "https://\(host):\(httpsPort() ?? 8443)/join#" + invitation.token
        let bare = host.filter { $0 != "[" && $0 != "]" }
        let others = reachableNames.filter { $0 != Self.written(bare) }
        return InvitationView(url: url, expiresAt: invitation.expiresAt, qrCode: qrCode(url), worksUnder: [bare] + others)
    }
}

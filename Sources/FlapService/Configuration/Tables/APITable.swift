import FlapCore
import FlapDisplay
import FlapHardware
import FlapHeartRate
import FlapJSON
import FlapMQTT
import FlapMQTTClient
import FlapMessaging
import FlapRooms
import FlapSources
import FlapTOML
import FlapTime
import FlapVestaboard
import FoundationEssentials
import Wematch

/// `[api]`: the native API's ports, keys, TLS names and the hosts `/mcp` answers to.
extension ConfigurationParser {
    static func readAPI(_ api: inout TableReader, into configuration: inout FlapdConfiguration) {
        defer { api.finish() }
        configuration.api.port = api.port("port") ?? configuration.api.port
        configuration.api.key = api.secret("key", file: "key_file")
        configuration.api.viewerKey = api.secret("viewer_key", file: "viewer_key_file")
        for host in api.strings("allowed_hosts") ?? [] {
            if let problem = hostProblem(host) { api.fail("allowed_hosts", problem) } else { configuration.api.allowedHosts.append(host) }
        }
        configuration.api.httpsPort = api.port("https_port") ?? configuration.api.httpsPort
        for name in api.strings("tls_names") ?? [] {
            if let problem = hostProblem(name) { api.fail("tls_names", problem) } else { configuration.api.tlsNames.append(name) }
        }
        switch (api.string("tls_certificate_file"), api.string("tls_key_file")) {
        case (let certificate?, let key?): configuration.api.tlsFiles = TLSFiles(certificate: certificate, key: key)
        case (.some, nil): api.fail("tls_certificate_file", .givenWithout("tls_key_file", why: "the certificate's private key"))
        case (nil, .some): api.fail("tls_key_file", .givenWithout("tls_certificate_file", why: "the certificate the key belongs to"))
        case (nil, nil): break
        }
    }

    /// What is wrong with an `allowed_hosts` entry, or nil: a name or address as a Host header
    /// gives it, without a scheme, a port or a path.
    static func hostProblem(_ host: String) -> String? {
        if host.isEmpty { return "an empty name" }
        if host.contains("://") || host.contains("/") { return "\(host.debugDescription): give the name alone, without http:// or a path" }
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if !bare.contains(":"), !bare.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" }) {
            return "\(host.debugDescription) is not a host name or address"
        }
        if bare.filter({ $0 == ":" }).count == 1 { return "\(host.debugDescription) has a port in it; give the name alone (any port is allowed)" }
        return nil
    }
}

/// `[api]`: the native API's ports, keys, HTTPS names and the hosts `/mcp` answers to.
public struct APISettings: Sendable, Equatable {
    /// The plain-HTTP port of the native API (`port`, `--api-port`).
    public var port = 8080
    /// The HTTPS port of the page, the native API and `/mcp` (`https_port`, `--https-port`).
    public var httpsPort = 8443
    /// Names (or addresses) the certificate flapd issues carries besides the machine's own
    /// (`tls_names`): a DNS alias, a VPN's name.
    public var tlsNames: [String] = []
    /// The user's own certificate and key (`tls_certificate_file`, `tls_key_file`); nil:
    /// flapd's own certificate authority issues one.
    public var tlsFiles: TLSFiles?
    /// The bearer key; nil: made on first start and kept in the state directory.
    public var key: Secret?
    /// The read-only viewer key (board, its picture and its events only); nil: made on first
    /// start and kept in the state directory.
    public var viewerKey: Secret?
    /// Host names the MCP endpoint answers to besides localhost's, the listen address and this
    /// machine's name (`allowed_hosts`): a name of a reverse proxy, a DNS alias.
    public var allowedHosts: [String] = []

    /// The defaults: ports 8080 and 8443, keys made on first start.
    public init() {}
}

/// A certificate chain and its key in PEM files, reloaded when they change.
public struct TLSFiles: Sendable, Equatable {
    /// The certificate chain's PEM file.
    public var certificate: String
    /// Its key's PEM file.
    public var key: String
    /// The files `certificate` and `key`.
    public init(certificate: String, key: String) {
        self.certificate = certificate
        self.key = key
    }
}

import NIOCore
import NIOSSL
import Synchronization

/// The certificate flapd serves now. Each TLS handshake asks for it, so a re-issued or reloaded
/// certificate is served from the next connection on, without a restart.
public final class ServerCertificate: Sendable {
    private let current: Mutex<ServerIdentity>

    init(_ identity: ServerIdentity) {
        current = Mutex(identity)
    }

    /// The identity served now.
    public var identity: ServerIdentity { current.withLock { $0 } }

    func replace(with identity: ServerIdentity) {
        current.withLock { $0 = identity }
    }

    /// The server's TLS settings: swift-nio-ssl's defaults (TLS 1.2 and 1.3, its cipher suites),
    /// HTTP/1.1 by ALPN, and the certificate read afresh at every handshake.
    public func tlsConfiguration() -> TLSConfiguration {
        let first = identity
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: first.chain.map { .certificate($0) }, privateKey: .privateKey(first.key))
        configuration.applicationProtocols = ["http/1.1"]
        configuration.sslContextCallback = { [self] _, promise in
            let identity = self.identity
            var override = NIOSSLContextConfigurationOverride()
            override.certificateChain = identity.chain.map { .certificate($0) }
            override.privateKey = .privateKey(identity.key)
            promise.succeed(override)
        }
        return configuration
    }
}

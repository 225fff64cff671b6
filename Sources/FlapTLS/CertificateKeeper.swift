import FoundationEssentials
import Logging
import ServiceLifecycle
import Synchronization

/// Where the server certificate comes from.
public enum CertificateSource: Sendable, Equatable {
    /// flapd's own authority in `folder`, issuing for `localhost`, `hostName`, `<hostName>.local`,
    /// the current addresses and `extraNames` (`[api] tls_names`); `boardName` names the authority.
    case ownAuthority(folder: String, boardName: String, hostName: String, extraNames: [String])
    /// The user's PEM files (`[api] tls_certificate_file`, `tls_key_file`).
    case files(certificate: String, key: String)
}

/// Keeps the served certificate current: with flapd's own authority, re-issued when the machine's
/// names or addresses change and a month before it expires; with the user's files, reloaded when
/// they change (a change that cannot be used is said, and the last good certificate kept).
public final class CertificateKeeper: Service, Sendable {
    /// The certificate served, kept current.
    public let certificate: ServerCertificate
    /// flapd's own authority; nil when the user's certificate is served.
    public let authority: CertificateAuthority?
    private let source: CertificateSource
    private let addresses: @Sendable () -> [String]
    private let now: @Sendable () -> Date
    private let interval: Duration
    private let logger: Logger
    /// The user's files as last read, so an unchanged file is not parsed again.
    private let lastRead: Mutex<(chain: [UInt8], key: [UInt8])?>

    /// How long before its end a certificate flapd issued is replaced.
    public static let renewBefore: Duration = .seconds(30 * 86_400)

    /// Loads or makes everything now, so a certificate that cannot be used stops the start with
    /// the reason. `addresses` and `now` are injected for tests.
    public init(
        source: CertificateSource, addresses: @escaping @Sendable () -> [String] = NetworkAddresses.current,
        now: @escaping @Sendable () -> Date = { Date() }, interval: Duration = .seconds(15), logger: Logger
    ) throws {
        self.source = source
        self.addresses = addresses
        self.now = now
        self.interval = interval
        self.logger = logger
        switch source {
        case .ownAuthority(let folder, let boardName, let hostName, let extraNames):
            let authority = try AuthorityFiles(folder: folder).loadOrMake(name: "\(boardName) on \(hostName)", now: now(), logger: logger)
            let names = ServerNames(hostName: hostName, extra: extraNames, addresses: addresses())
            let identity = try authority.issue(for: names, now: now())
            self.authority = authority
            certificate = ServerCertificate(identity)
            lastRead = Mutex(nil)
            logger.info("issued the HTTPS certificate", metadata: ["names": "\(names)", "until": "\(identity.notValidAfter)"])
        case .files(let certificatePath, let keyPath):
            guard let chain = AuthorityFiles.read(certificatePath) else {
                throw CertificateProblem("cannot read the certificate file \(certificatePath) ([api] tls_certificate_file)")
            }
            guard let key = AuthorityFiles.read(keyPath) else {
                throw CertificateProblem("cannot read the key file \(keyPath) ([api] tls_key_file): check that flapd may read it")
            }
            let identity: ServerIdentity
            do {
                identity = try ServerIdentity(chainPEM: Array(chain.utf8), keyPEM: Array(key.utf8))
            } catch {
                throw CertificateProblem("\(certificatePath), \(keyPath): \(error)")
            }
            authority = nil
            certificate = ServerCertificate(identity)
            lastRead = Mutex((Array(chain.utf8), Array(key.utf8)))
            logger.info(
                "serving the configured HTTPS certificate",
                metadata: [
                    "names": "\(identity.alternativeNames.joined(separator: ", "))",
                    "until": "\(identity.notValidAfter)"
                ])
        }
    }

    /// What `refresh` did.
    public enum Change: Equatable, Sendable {
        case none
        case reissued(reason: String)
        case reloaded
        case refused(CertificateProblem)
    }

    /// Checks once whether the certificate should change, and changes it.
    @discardableResult
    public func refresh() -> Change {
        switch source {
        case .ownAuthority(_, _, let hostName, let extraNames):
            return reissueIfNeeded(names: ServerNames(hostName: hostName, extra: extraNames, addresses: addresses()))
        case .files(let certificatePath, let keyPath):
            return reloadIfChanged(certificatePath: certificatePath, keyPath: keyPath)
        }
    }

    private func reissueIfNeeded(names: ServerNames) -> Change {
        guard let authority else { return .none }
        let current = certificate.identity
        let at = now()
        let reason: String
        if current.names != names {
            reason = "the names or addresses changed"
        } else if current.notValidAfter.timeIntervalSince(at) < seconds(Self.renewBefore) {
            reason = "it expires on \(current.notValidAfter)"
        } else {
            return .none
        }
        do {
            let identity = try authority.issue(for: names, now: at)
            certificate.replace(with: identity)
            logger.notice("issued a new HTTPS certificate: \(reason)", metadata: ["names": "\(names)", "until": "\(identity.notValidAfter)"])
            return .reissued(reason: reason)
        } catch {
            logger.error("cannot issue a new HTTPS certificate; the current one is served", metadata: ["error": "\(error)"])
            return .refused(CertificateProblem("\(error)"))
        }
    }

    private func reloadIfChanged(certificatePath: String, keyPath: String) -> Change {
        guard let chainText = AuthorityFiles.read(certificatePath), let keyText = AuthorityFiles.read(keyPath) else { return .none }
        let chain = Array(chainText.utf8), key = Array(keyText.utf8)
        let changed = lastRead.withLock { last -> Bool in
            defer { last = (chain, key) }
            return last.map { $0.chain != chain || $0.key != key } ?? true
        }
        guard changed else { return .none }
        do {
            let identity = try ServerIdentity(chainPEM: chain, keyPEM: key)
            certificate.replace(with: identity)
            logger.notice(
                "reloaded the HTTPS certificate: its files changed",
                metadata: [
                    "names": "\(identity.alternativeNames.joined(separator: ", "))",
                    "until": "\(identity.notValidAfter)"
                ])
            return .reloaded
        } catch {
            // A certificate renewed in two steps (the chain, then the key) is read again at the next check.
            logger.error(
                "the HTTPS certificate files changed but cannot be used; the last good certificate is served",
                metadata: [
                    "certificate": "\(certificatePath)", "key": "\(keyPath)", "error": "\(error)"
                ])
            return .refused(error)
        }
    }

    /// Looks again at each interval until flapd stops.
    public func run() async throws {
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            guard (try? await cancelWhenGracefulShutdown({ try await Task.sleep(for: self.interval) })) != nil else { return }
            refresh()
        }
    }
}

import Crypto
import FlapStorage
import FoundationEssentials
import Glibc
import Logging
import SwiftASN1
import SystemPackage
import X509

/// Where the certificate authority is kept: `ca.crt` (PEM, what phones install) and `ca.key`
/// (PEM, mode 0600, never logged nor served) in one folder of the state directory.
public struct AuthorityFiles: Sendable {
    /// The folder holding the authority's certificate and key.
    public let folder: String
    /// The authority's certificate, which phones install.
    public var certificatePath: String { folder + "/ca.crt" }
    var keyPath: String { folder + "/ca.key" }

    /// The authority's files in `folder`.
    public init(folder: String) { self.folder = folder }

    /// The authority kept here, or a new one made and written when there is none. One that cannot
    /// be used (damaged, its key not its certificate's, expired) is moved aside, never deleted,
    /// and said once: phones that trusted it must install the new one.
    public func loadOrMake(name: String, now: Date, logger: Logger) throws -> CertificateAuthority {
        let hasCertificate = access(certificatePath, F_OK) == 0
        let hasKey = access(keyPath, F_OK) == 0
        if hasCertificate || hasKey {
            do {
                return try load(now: now)
            } catch {
                let aside = setAside(now: now)
                logger.error(
                    "the certificate authority cannot be used: \(error); moved aside and a new one made: phones must install the new one from /ca.crt",
                    metadata: [
                        "moved_to": "\(aside.joined(separator: ", "))"
                    ])
            }
        }
        if mkdir(folder, 0o700) != 0, errno != EEXIST {
            throw CertificateProblem("cannot make \(folder): \(Errno(rawValue: errno))")
        }
        let authority = try CertificateAuthority.make(name: name, now: now)
        try DurableFile.write(Data(authority.key.serializeAsPEM().pemString.utf8), to: keyPath, mode: 0o600)
        try DurableFile.write(Data(authority.certificatePEM().utf8), to: certificatePath, mode: 0o644)
        logger.notice("made a certificate authority for HTTPS; install it on phones from /ca.crt", metadata: ["certificate": "\(certificatePath)"])
        return authority
    }

    private func load(now: Date) throws -> CertificateAuthority {
        guard let certificateText = Self.read(certificatePath) else { throw CertificateProblem("\(certificatePath) is missing or unreadable") }
        guard let keyText = Self.read(keyPath) else { throw CertificateProblem("\(keyPath) is missing or unreadable") }
        let certificate: Certificate
        let key: Certificate.PrivateKey
        do { certificate = try Certificate(pemEncoded: certificateText) } catch {
            throw CertificateProblem("\(certificatePath) is not a PEM certificate")
        }
        do { key = try Certificate.PrivateKey(pemEncoded: keyText) } catch { throw CertificateProblem("\(keyPath) is not a PEM private key") }
        guard key.publicKey == certificate.publicKey else { throw CertificateProblem("\(keyPath) is not the key of \(certificatePath)") }
        guard certificate.notValidAfter > now else { throw CertificateProblem("\(certificatePath) expired on \(certificate.notValidAfter)") }
        return CertificateAuthority(certificate: certificate, key: key)
    }

    /// Renames the authority's files to `NAME.damaged-SECONDS`; the new names.
    private func setAside(now: Date) -> [String] {
        let suffix = ".damaged-\(Int(now.timeIntervalSince1970))"
        var moved: [String] = []
        for path in [certificatePath, keyPath] where access(path, F_OK) == 0 {
            if rename(path, path + suffix) == 0 { moved.append(path + suffix) }
        }
        return moved
    }

    /// A small PEM file's text; nil when missing, unreadable or too large to be one.
    static func read(_ path: String, limit: Int = 1 << 20) -> String? {
        (try? SmallFile.read(path, largest: limit)).flatMap { $0 }.map { String(decoding: $0, as: UTF8.self) }
    }
}

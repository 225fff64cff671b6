import Crypto
import FoundationEssentials
import SwiftASN1
import X509

/// flapd's own certificate authority: a P-256 key and a self-signed CA certificate, made once and
/// kept in the state directory, which phones install once and which then vouches for every server
/// certificate flapd issues itself (re-issued as names, addresses and dates require).
public struct CertificateAuthority: Sendable {
    /// Its certificate.
    public let certificate: Certificate
    let key: Certificate.PrivateKey

    /// How long the authority lasts: a phone installs it once for the life of the board.
    public static let lifetime: Duration = .seconds(20 * 365 * 86_400)
    /// How long a server certificate lasts (Apple's platforms refuse more than 825 days for a
    /// private CA's; Chromium's own limit is 398 days for public ones). Re-issued a month before.
    public static let serverLifetime: Duration = .seconds(90 * 86_400)

    /// The authority of `certificate`, signing with `key`.
    public init(certificate: Certificate, key: Certificate.PrivateKey) {
        self.certificate = certificate
        self.key = key
    }

    /// A new authority named after the board and the machine, valid from a day before `now`
    /// (a phone's clock a little behind still accepts it).
    public static func make(name: String, now: Date) throws -> CertificateAuthority {
        let key = Certificate.PrivateKey(P256.Signing.PrivateKey())
        let subject = try DistinguishedName {
            OrganizationName("VestaWidget")
            CommonName(name)
        }
        let publicKey = key.publicKey
        let certificate = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: publicKey,
            notValidBefore: now - 86_400, notValidAfter: now + seconds(lifetime),
            issuer: subject, subject: subject, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(digitalSignature: true, keyCertSign: true, cRLSign: true))
                SubjectKeyIdentifier(hash: publicKey)
            },
            issuerPrivateKey: key)
        return CertificateAuthority(certificate: certificate, key: key)
    }

    /// A server certificate and its new key for `names`, valid from a day before `now` for
    /// ``serverLifetime``.
    public func issue(for names: ServerNames, now: Date) throws -> ServerIdentity {
        let key = Certificate.PrivateKey(P256.Signing.PrivateKey())
        let subject = try DistinguishedName {
            OrganizationName("VestaWidget")
            CommonName(names.dnsNames.dropFirst().first ?? names.dnsNames.first ?? "flapd")
        }
        var alternatives: [GeneralName] = names.dnsNames.map { .dnsName($0) }
        for address in names.addresses {
            guard let bytes = ServerNames.addressBytes(address) else { continue }
            alternatives.append(.ipAddress(ASN1OctetString(contentBytes: bytes[...])))
        }
        let notAfter = min(now + seconds(Self.serverLifetime), certificate.notValidAfter)
        let publicKey = key.publicKey
        let certificate = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: publicKey,
            notValidBefore: now - 86_400, notValidAfter: notAfter,
            issuer: self.certificate.subject, subject: subject, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames(alternatives)
                SubjectKeyIdentifier(hash: publicKey)
                AuthorityKeyIdentifier(keyIdentifier: try self.certificate.extensions.subjectKeyIdentifier?.keyIdentifier)
            },
            issuerPrivateKey: self.key)
        return try ServerIdentity(chain: [certificate, self.certificate], key: key, names: names)
    }

    /// The authority's common name, as phones list it.
    public var name: String {
        certificate.subject.flatMap { $0 }.first { $0.type == .RDNAttributeType.commonName }.map { "\($0.value)" } ?? "VestaWidget"
    }

    /// The CA certificate as PEM, what `/ca.crt` serves and phones install.
    public func certificatePEM() throws -> String { try certificate.serializeAsPEM().pemString }
}

func seconds(_ duration: Duration) -> TimeInterval { TimeInterval(duration.components.seconds) }

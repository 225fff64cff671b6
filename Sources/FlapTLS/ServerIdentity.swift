import FoundationEssentials
import NIOSSL
import SwiftASN1
import X509

/// A certificate chain and its key, as swift-nio-ssl serves them, with what the leaf says about
/// itself (its names, when it stops being valid).
public struct ServerIdentity: Sendable {
    /// The server's certificate.
    public let leaf: Certificate
    let chain: [NIOSSLCertificate]
    let key: NIOSSLPrivateKey
    /// The names it was issued for, when flapd issued it (to tell when they changed).
    public let names: ServerNames?

    /// When the certificate ends.
    public var notValidAfter: Date { leaf.notValidAfter }

    /// The names and addresses in the leaf's subjectAltName, as text.
    public var alternativeNames: [String] {
        guard let names = try? leaf.extensions.subjectAlternativeNames else { return [] }
        return names.compactMap { name in
            switch name {
            case .dnsName(let dns): return dns
            case .ipAddress(let octets): return Self.addressText(Array(octets.bytes))
            default: return nil
            }
        }
    }

    init(chain: [Certificate], key: Certificate.PrivateKey, names: ServerNames?) throws {
        leaf = chain[0]
        self.chain = try chain.map { try NIOSSLCertificate(bytes: Self.der($0), format: .der) }
        self.key = try NIOSSLPrivateKey(bytes: Array(key.serializeAsPEM().pemString.utf8), format: .pem)
        self.names = names
    }

    /// A chain and key read from PEM files (the user's own certificate): the key must belong to
    /// the first certificate.
    init(chainPEM: [UInt8], keyPEM: [UInt8]) throws(CertificateProblem) {
        let chain: [NIOSSLCertificate]
        do {
            chain = try NIOSSLCertificate.fromPEMBytes(chainPEM)
        } catch {
            throw CertificateProblem("the certificate file holds no PEM certificate (\(error))")
        }
        guard let first = chain.first else { throw CertificateProblem("the certificate file holds no certificate") }
        do {
            key = try NIOSSLPrivateKey(bytes: keyPEM, format: .pem)
        } catch {
            throw CertificateProblem("the key file holds no PEM private key (an encrypted key is not read: flapd has no passphrase)")
        }
        do {
            leaf = try Certificate(derEncoded: first.toDERBytes())
            // swift-nio-ssl checks that the key is the certificate's when it makes a context.
            _ = try NIOSSLContext(
                configuration: .makeServerConfiguration(certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key)))
        } catch {
            throw CertificateProblem("the key does not belong to the first certificate in the file, or the certificate cannot be read (\(error))")
        }
        self.chain = chain
        names = nil
    }

    static func der(_ certificate: Certificate) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return serializer.serializedBytes
    }

    static func addressText(_ bytes: [UInt8]) -> String {
        if bytes.count == 4 { return bytes.map(String.init).joined(separator: ".") }
        var groups: [String] = []
        for index in stride(from: 0, to: bytes.count, by: 2) {
            groups.append(String(UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1]), radix: 16))
        }
        return groups.joined(separator: ":")
    }
}

/// Why a certificate or key cannot be used, said for the person who configured it.
public struct CertificateProblem: Error, CustomStringConvertible, Equatable {
    /// What is wrong with it.
    public var description: String
    /// A problem said in `description`.
    public init(_ description: String) { self.description = description }
}

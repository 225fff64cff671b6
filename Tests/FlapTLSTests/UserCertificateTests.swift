import Crypto
import FlapTLS
import Foundation
import SwiftASN1
import TestSupport
import Testing
import X509

/// The user's own certificate (`[api] tls_certificate_file`, `tls_key_file`): served, reloaded
/// when its files change, a bad change said and the last good one kept.
@Suite struct UserCertificateTests {
    let folder: String

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("usercert-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    /// A self-signed certificate for `name` and its key, as PEM, as a user's tool would write them.
    static func selfSigned(_ name: String) throws -> (certificate: String, key: String) {
        let key = Certificate.PrivateKey(P256.Signing.PrivateKey())
        let subject = try DistinguishedName { CommonName(name) }
        let certificate = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: key.publicKey, notValidBefore: Date() - 60, notValidAfter: Date() + 86_400,
            issuer: subject, subject: subject, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions { SubjectAlternativeNames([.dnsName(name)]) }, issuerPrivateKey: key)
        return (try certificate.serializeAsPEM().pemString, try key.serializeAsPEM().pemString)
    }

    func write(_ pair: (certificate: String, key: String)) throws {
        try pair.certificate.write(toFile: folder + "/board.crt", atomically: true, encoding: .utf8)
        try pair.key.write(toFile: folder + "/board.key", atomically: true, encoding: .utf8)
    }

    func keeper(_ log: LogLines) throws -> CertificateKeeper {
        try CertificateKeeper(source: .files(certificate: folder + "/board.crt", key: folder + "/board.key"), logger: log.logger)
    }

    @Test func theFilesAreServedAndReloadedWhenTheyChange() throws {
        let log = LogLines()
        try write(Self.selfSigned("board.example.net"))
        let keeper = try keeper(log)
        #expect(keeper.authority == nil)
        #expect(keeper.certificate.identity.alternativeNames == ["board.example.net"])
        #expect(keeper.refresh() == .none, "unchanged files are not read as new")

        try write(Self.selfSigned("board.tailnet.ts.net"))
        #expect(keeper.refresh() == .reloaded)
        #expect(keeper.certificate.identity.alternativeNames == ["board.tailnet.ts.net"])
        #expect(log.all.contains { $0.contains("reloaded the HTTPS certificate") })
    }

    @Test func aChangeThatCannotBeUsedIsSaidAndTheLastGoodOneKept() throws {
        let log = LogLines()
        try write(Self.selfSigned("board.example.net"))
        let keeper = try keeper(log)
        // A renewal half done: the new certificate beside the old key.
        try Self.selfSigned("renewed.example.net").certificate.write(toFile: folder + "/board.crt", atomically: true, encoding: .utf8)
        guard case .refused(let problem) = keeper.refresh() else { Issue.record("a key of another certificate was taken"); return }
        #expect(problem.description.contains("does not belong to the first certificate"))
        #expect(keeper.certificate.identity.alternativeNames == ["board.example.net"])
        #expect(log.all.contains { $0.hasPrefix("error") && $0.contains("last good certificate is served") })
        #expect(!log.all.contains { $0.contains("PRIVATE KEY") })
    }

    @Test func filesThatCannotBeUsedStopTheStartNamingThem() throws {
        let log = LogLines()
        #expect { try keeper(log) } throws: { "\($0)".contains("cannot read the certificate file \(folder)/board.crt") }
        try write((certificate: "garbage", key: "garbage"))
        #expect { try keeper(log) } throws: { "\($0)".contains("holds no") }
        let pair = try Self.selfSigned("a.example.net")
        try write((certificate: pair.certificate, key: try Self.selfSigned("b.example.net").key))
        #expect { try keeper(log) } throws: { "\($0)".contains("the key does not belong to the first certificate") }
    }
}

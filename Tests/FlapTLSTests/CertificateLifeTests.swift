import FlapTLS
import Foundation
import Synchronization
import TestSupport
import Testing
import X509

/// The server certificate's life with flapd's own authority: what it names, when it is
/// re-issued (on an injected clock and injected addresses), and the authority's files.
@Suite struct CertificateLifeTests {
    /// A clock and the machine's addresses, both set by the test.
    final class Machine: Sendable {
        let time = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
        let addresses = Mutex(["192.168.1.20"])
        var now: Date { time.withLock { $0 } }
        func advance(days: Double) { time.withLock { $0 += days * 86_400 } }
    }

    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tls-\(UUID().uuidString)").path

    func keeper(_ machine: Machine, log: LogLines = LogLines(), names: [String] = ["flapd.test", "10.9.8.7"]) throws -> CertificateKeeper {
        try CertificateKeeper(
            source: .ownAuthority(folder: folder, boardName: "Kitchen", hostName: "kitchen-pi", extraNames: names),
            addresses: { machine.addresses.withLock { $0 } }, now: { machine.now }, logger: log.logger)
    }

    /// Checks the served chain the way a client does (swift-certificates' RFC 5280 verifier) for `host`.
    func verifies(_ keeper: CertificateKeeper, host: String? = nil, ip: String? = nil, at now: Date) async throws -> Bool {
        let authority = try #require(keeper.authority)
        var verifier = Verifier(rootCertificates: CertificateStore([authority.certificate])) {
            RFC5280Policy(validationTime: now)
            ServerIdentityPolicy(serverHostname: host, serverIP: ip)
        }
        let result = await verifier.validate(leafCertificate: keeper.certificate.identity.leaf, intermediates: CertificateStore())
        if case .validCertificate = result { return true }
        return false
    }

    @Test func theCertificateNamesTheMachineItsAddressesAndTheConfiguredNames() async throws {
        let machine = Machine()
        let keeper = try keeper(machine)
        let names = keeper.certificate.identity.alternativeNames
        for expected in ["localhost", "kitchen-pi", "kitchen-pi.local", "flapd.test", "127.0.0.1", "0:0:0:0:0:0:0:1", "10.9.8.7", "192.168.1.20"] {
            #expect(names.contains(expected), "\(expected) missing from \(names)")
        }
        #expect(try await verifies(keeper, host: "flapd.test", at: machine.now))
        #expect(try await verifies(keeper, host: "kitchen-pi.local", at: machine.now))
        #expect(try await verifies(keeper, ip: "192.168.1.20", at: machine.now))
        #expect(try await !verifies(keeper, host: "elsewhere.test", at: machine.now), "a name it was not issued for is refused")
        let authority = try #require(keeper.authority)
        #expect(try authority.certificate.extensions.basicConstraints == .isCertificateAuthority(maxPathLength: 0))
        #expect(try keeper.certificate.identity.leaf.extensions.extendedKeyUsage?.contains(.serverAuth) == true)
    }

    @Test func itIsReissuedAMonthBeforeItExpiresAndWhenTheAddressesChange() async throws {
        let machine = Machine()
        let keeper = try keeper(machine)
        let first = keeper.certificate.identity.notValidAfter
        #expect(keeper.refresh() == .none)
        machine.advance(days: 59)
        #expect(keeper.refresh() == .none, "61 days left")
        machine.advance(days: 2)
        guard case .reissued = keeper.refresh() else { Issue.record("not re-issued with 29 days left"); return }
        #expect(keeper.certificate.identity.notValidAfter > first)
        #expect(try await verifies(keeper, host: "flapd.test", at: machine.now))

        machine.addresses.withLock { $0 = ["192.168.1.20", "192.168.7.3"] }
        #expect(keeper.refresh() == .reissued(reason: "the names or addresses changed"))
        #expect(try await verifies(keeper, ip: "192.168.7.3", at: machine.now))
        #expect(keeper.refresh() == .none)
    }

    @Test func theAuthorityIsKeptAcrossStartsWithItsKeyPrivate() throws {
        let machine = Machine()
        let log = LogLines()
        let first = try keeper(machine, log: log)
        let second = try keeper(machine, log: log)
        #expect(first.authority?.certificate == second.authority?.certificate)
        func mode(_ path: String) throws -> Int { try (FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1 }
        #expect(try mode(folder + "/ca.key") == 0o600)
        #expect(try mode(folder) == 0o700)
        let key = try String(contentsOfFile: folder + "/ca.key", encoding: .utf8)
        #expect(key.contains("PRIVATE KEY"))
        let body = key.split(separator: "\n").dropFirst().first.map(String.init) ?? "?"
        #expect(!log.all.contains { $0.contains("PRIVATE KEY") || $0.contains(body) }, "the key is never logged")
        #expect(log.all.filter { $0.contains("made a certificate authority") }.count == 1)
    }

    @Test func aDamagedAuthorityIsSetAsideNotDeletedAndSaid() throws {
        let machine = Machine()
        _ = try keeper(machine)
        try "not a certificate".write(toFile: folder + "/ca.crt", atomically: true, encoding: .utf8)
        let log = LogLines()
        let keeper = try keeper(machine, log: log)
        #expect(keeper.authority != nil)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder)
        let aside = try #require(files.first { $0.hasPrefix("ca.crt.damaged-") })
        #expect(try String(contentsOfFile: folder + "/" + aside, encoding: .utf8) == "not a certificate")
        #expect(files.contains { $0.hasPrefix("ca.key.damaged-") })
        #expect(
            log.all.contains { $0.hasPrefix("error") && $0.contains("not a PEM certificate") && $0.contains("phones must install the new one") },
            "\(log.all)")
    }
}

import FlapMembers
import Foundation
import TestSupport
import Testing

/// Found by an adversarial run: cookies and files that cost flapd more than they should.
@Suite struct AccessHardeningTests {
    func file(_ contents: String) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("access-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("access.json").path
        try contents.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aCookieOfAnotherFormIsRefusedUnread() async throws {
        let store = AccessStore(path: nil)
        let (real, _) = await store.openSession(for: .owner)
        #expect(AccessToken.wellFormed(real))
        #expect(await store.session(real)?.principal == .owner)
        for forged in [String(repeating: "A", count: 60_000), "", String(real.dropLast()), real + "A", String(real.dropLast()) + "!"] {
            #expect(!AccessToken.wellFormed(forged))
            #expect(await store.session(forged) == nil)
        }
    }

    @Test func entriesThatAreNotDigestsAreIgnoredAndSaid() async throws {
        let token = AccessToken.random()
        let now = Date().timeIntervalSince1970
        let path = try file(
            #"{"members":[],"invitations":[],"keys":[],"sessions":[{"digest":"\#(token)","at":\#(now)},{"digest":"\#(AccessToken.digest(token))","at":\#(now)}]}"#
        )
        let log = LogLines()
        let store = AccessStore(path: path, logger: log.logger)
        #expect(await store.session(token)?.principal == .owner, "the digest's entry works")
        #expect(await store.session(AccessToken.digest(token)) == nil, "a digest is no cookie")
        #expect(log.all.filter { $0.contains("not digests") }.count == 1)
    }

    @Test func aDamagedOrHugeFileSignsEveryoneOutAndIsSaidOnceEach() async throws {
        let log = LogLines()
        _ = AccessStore(path: try file("not json at all"), logger: log.logger)
        _ = AccessStore(path: try file("{\"members\": \"" + String(repeating: "x", count: 1_100_000) + "\"}"), logger: log.logger)
        #expect(log.all.count == 2 && log.all.allSatisfy { $0.contains("damaged or too large") }, "\(log.all)")
    }

    @Test func aWellFormedFileOverItsBudgetIsRefusedUnread() async throws {
        // Valid JSON holding a working session, grown past the 1 MiB cap (3.1 MB) by spaces.
        let token = AccessToken.random()
        let entry =
            #"{"members":[],"invitations":[],"keys":[],"sessions":[{"digest":"\#(AccessToken.digest(token))","at":\#(Date().timeIntervalSince1970)}]}"#
        let log = LogLines()
        let store = AccessStore(path: try file(entry + String(repeating: " ", count: 3_100_000)), logger: log.logger)
        #expect(await store.session(token) == nil, "nothing of it was taken")
        #expect(log.all.count == 1 && log.all[0].contains("damaged or too large") && log.all[0].contains("larger than 1.0 MiB"), "\(log.all)")
        // The same file within the cap works.
        #expect(await AccessStore(path: try file(entry)).session(token)?.principal == .owner)
    }
}

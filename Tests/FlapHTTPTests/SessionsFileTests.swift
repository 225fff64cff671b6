import FlapHTTP
import Logging
import Foundation
import Testing
import TestSupport

/// Signed-in browsers survive a restart: sessions are kept in a file of the state directory, only
/// the owner may read it, ended and expired ones are not brought back, and a damaged file signs
/// everyone out rather than stopping flapd.
@Suite struct SessionsFileTests {
    func file() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sessions-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent("sessions.json").path
    }

    @Test func aSessionOutlivesARestartButNotItsEndOrItsExpiry() async throws {
        let path = try file()
        let start = Date()
        let first = Sessions(file: path, now: { start })
        let kept = await first.open(), ended = await first.open()
        await first.close(ended.id)
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)

        let restarted = Sessions(file: path, now: { start.addingTimeInterval(60) })
        let restored = try #require(await restarted.expires(kept.id))
        #expect(abs(restored.timeIntervalSince(kept.expires)) < 0.001)
        #expect(await restarted.expires(ended.id) == nil)
        let aWeekLater = Sessions(file: path, now: { start.addingTimeInterval(Sessions.lifetime + 1) })
        #expect(await aWeekLater.expires(kept.id) == nil)
    }

    @Test func aDamagedFileSignsEveryoneOut() async throws {
        let path = try file()
        try Data("{not json".utf8).write(to: URL(fileURLWithPath: path))
        let sessions = Sessions(file: path)
        #expect(await sessions.expires("anything") == nil)
        let opened = await sessions.open()
        #expect(await Sessions(file: path).expires(opened.id) != nil, "the file is written whole again")
    }
}

/// Found by an adversarial run: cookies and session files that cost flapd more than they should.
@Suite struct SessionsHardeningTests {
    func file(_ contents: String) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sessions-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("sessions.json").path
        try contents.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aCookieOfAnotherFormIsRefusedWithoutComparingIt() async throws {
        let sessions = Sessions()
        let real = await sessions.open()
        #expect(Sessions.wellFormed(real.id))
        #expect(await sessions.expires(real.id) != nil)
        for forged in [String(repeating: "A", count: 60_000), "", String(real.id.dropLast()), real.id + "A", String(real.id.dropLast()) + "!"] {
            #expect(!Sessions.wellFormed(forged))
            #expect(await sessions.expires(forged) == nil)
        }
    }

    @Test func aSessionsFileIsCappedAndOnlyWellFormedIdsAreTaken() async throws {
        let later = Date().addingTimeInterval(3600).timeIntervalSince1970
        let good = (0..<300).map { i in String(repeating: "a", count: 40) + String(format: "%03d", i) }
        var entries = Dictionary(uniqueKeysWithValues: good.enumerated().map { ($1, later + Double($0)) })
        entries["any string"] = later
        let path = try file(String(decoding: try JSONEncoder().encode(entries), as: UTF8.self))
        let sessions = Sessions(file: path)
        #expect(await sessions.expires("any string") == nil, "an entry that is no session id does not sign anyone in")
        // The newest 256 are kept, the oldest 44 not.
        #expect(await sessions.expires(good[299]) != nil)
        #expect(await sessions.expires(good[0]) == nil)
    }

    @Test func aDamagedOrHugeFileSignsEveryoneOutAndIsSaidOnce() async throws {
        let said = LogLines()
        _ = Sessions(file: try file("not json at all"), logger: said.logger)
        _ = Sessions(file: try file("{\"" + String(repeating: "x", count: 70_000) + "\": 1}"), logger: said.logger)
        #expect(said.all.count == 2 && said.all.allSatisfy { $0.contains("damaged or too large") }, "\(said.all)")
    }
}

import FlapHTTP
import Foundation
import Testing

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

import FlapCore
import Foundation
import Testing

@testable import FlapMessaging

/// The inbox answers `slots()` from a copy kept in step with its commits; after every kind of
/// change the copy must say what the database says (read by a second inbox on the same file).
@Suite struct SlotCacheTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("slots-\(UUID().uuidString)")
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    func message(_ id: String, from sender: String, created: TimeInterval, lifetime: TimeInterval = 3600) -> Message {
        Message(
            id: id, sender: Sender(id: sender), content: .text(id.uppercased()),
            createdAt: t0 + created, expiresAt: t0 + created + lifetime, source: MessageSource("test"))
    }

    @Test func theKeptSlotsMatchTheDatabaseAfterEveryKindOfChange() async throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("inbox.sqlite").path
        let inbox = try Inbox(path: path)
        func expectSameAsDatabase(_ step: String, _ expected: [String]) async throws {
            let kept = try await inbox.slots().map(\.id)
            let stored = try await Inbox(path: path).slots().map(\.id)
            #expect(kept == expected, "kept slots after \(step)")
            #expect(stored == expected, "stored slots after \(step)")
            #expect(try await inbox.slotCount() == expected.count, "count after \(step)")
        }
        try await expectSameAsDatabase("nothing", [])
        _ = try await inbox.accept(message("a1", from: "alice", created: 5), now: t0)
        _ = try await inbox.accept(message("b1", from: "bob", created: 1, lifetime: 60), now: t0)
        _ = try await inbox.accept(message("c1", from: "carol", created: 5), now: t0)
        try await expectSameAsDatabase("three senders", ["b1", "a1", "c1"])
        _ = try await inbox.accept(message("a2", from: "alice", created: 7), now: t0 + 7)
        _ = try await inbox.accept(message("a0", from: "alice", created: 2), now: t0 + 8)  // older: superseded on arrival
        try await expectSameAsDatabase("a replacement and a late older message", ["b1", "c1", "a2"])
        // A group: several queued before the writer commits them together, one refused inside.
        let queued = [
            await inbox.queueAccept(message("d1", from: "dave", created: 9), now: t0 + 9),
            await inbox.queueAccept(message("d1", from: "dave", created: 9), now: t0 + 9),
            await inbox.queueAccept(message("c2", from: "carol", created: 10), now: t0 + 10)
        ]
        for pending in queued { _ = try await pending.value }
        try await expectSameAsDatabase("a group with a duplicate", ["b1", "a2", "d1", "c2"])
        try await inbox.reject("d1", reason: "test", now: t0 + 11)
        try await expectSameAsDatabase("a rejection", ["b1", "a2", "c2"])
        #expect(try await inbox.clearSlot("carol", now: t0 + 12))
        try await expectSameAsDatabase("a cleared slot", ["b1", "a2"])
        #expect(try await inbox.expire(now: t0 + 120) == 1)
        try await expectSameAsDatabase("an expiry", ["a2"])
    }

    @Test func slotsReadWhileTheWriterCommitsAreNeverStale() async throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("inbox.sqlite").path
        let inbox = try Inbox(path: path)
        // The first read loads from the database while acceptances commit beside it.
        async let reads: Void = {
            for _ in 0..<50 { _ = try await inbox.slots() }
        }()
        for i in 0..<200 {
            _ = try await inbox.accept(message("m\(i)", from: "sender\(i % 7)", created: Double(i)), now: t0 + Double(i))
        }
        try await reads
        let expected = (193..<200).map { "m\($0)" }
        #expect(try await inbox.slots().map(\.id) == expected)
        #expect(try await Inbox(path: path).slots().map(\.id) == expected)
    }
}

import FlapStorage
import Foundation
import TestSupport
import Testing

@testable import FlapMessaging

/// A group's slot edits reach the panels as its commit starts, so a board starts moving while the
/// disk catches up; what a commit that failed gave them early is taken back.
@Suite(.cleansUp, .timeLimit(.minutes(2))) struct InboxEarlySlotsTests {
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    func message(_ id: String, from sender: String = "alice") -> Message {
        Message(id: id, sender: Sender(id: sender), content: .text("HI"), createdAt: t0, expiresAt: t0 + 3600, source: MessageSource("test"))
    }

    @Test func theSlotsAreGivenBeforeTheCommitAndTheSenderOnlyAfter() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("early-\(UUID().uuidString).sqlite").path
        let database = try SQLiteDatabase(path: path, readers: 1)
        try await database.write { db in try db.execute(sql: "CREATE TABLE t (x INTEGER)") }
        // Inside `beforeCommit` the row is not yet there for a reader; once the write returns it is.
        try await database.write(
            { db in try db.execute(sql: "INSERT INTO t VALUES (1)") },
            beforeCommit: { _ in
                let rows = try? database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") }
                #expect(rows == 0)
            })
        #expect(try await database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 1)
    }

    @Test(.enabled(if: SmallFilesystem.canMount, "mounting a small filesystem needs root"))
    func aMessageWhoseCommitFailedIsTakenBackFromTheSlots() async throws {
        let disk = try await SmallFilesystem.mount(mebibytes: 6)
        teardown { await disk.unmount() }
        let inbox = try Inbox(path: disk.path + "/inbox.sqlite")
        _ = try await inbox.accept(message("a1"), now: t0)
        #expect(try await inbox.slots().map(\.id) == ["a1"])  // read once: later edits go to the copy early
        var changes = inbox.changes().makeAsyncIterator()

        try disk.fill()
        // The writer's statements run in memory; the commit needs the disk, which is full.
        await #expect(throws: StorageFault.self) { try await inbox.accept(message("b1", from: "bob"), now: t0) }
        #expect(await changes.next() != nil)
        #expect(try await inbox.slots().map(\.id) == ["a1"], "bob's message, given early, was never committed")

        try disk.free()
        _ = try await inbox.accept(message("b2", from: "bob"), now: t0)
        #expect(try await inbox.slots().map(\.id) == ["a1", "b2"])
    }

    /// A lone message that takes its slot is decided by reads; its writes (the message, the slot,
    /// the replaced message's receipt, the sender's allowance) follow once the panels are told,
    /// in the same transaction: all of them are on the disk when its sender hears.
    @Test func aLoneMessagesWritesAreAllCommittedAfterThePanelsAreTold() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("late-\(UUID().uuidString).sqlite").path
        let inbox = try Inbox(path: path, rules: SenderRules(ratePerHour: 2))
        let events = await inbox.events()
        _ = try await inbox.accept(message("a1"), now: t0)
        #expect(try await inbox.slots().map(\.id) == ["a1"])
        // A time as `Date()` gives it (since 2001), whose seconds since 1970 do not read back to
        // the same bits: the announced receipt is still the one the file keeps.
        let arrival = Date(timeIntervalSinceReferenceDate: t0.timeIntervalSinceReferenceDate + 10.001)
        #expect(Date(timeIntervalSince1970: arrival.timeIntervalSince1970) != arrival)
        var later = message("a2")
        later.createdAt = arrival
        guard case .accepted(let receipt) = try await inbox.accept(later, now: arrival) else {
            Issue.record("a2 was not accepted")
            return
        }
        #expect(receipt.status == .accepted)
        #expect(try await inbox.slots().map(\.id) == ["a2"])
        var told = events.makeAsyncIterator()
        guard case .final(let replaced)? = await told.next() else {
            Issue.record("a1's final receipt was not announced")
            return
        }
        #expect(replaced.id == "a1" && replaced.status == .superseded && replaced.reason == "replaced by a2")
        #expect(abs(replaced.finalAt?.timeIntervalSince(arrival) ?? 1) < 0.000_001)

        // Read again from the file, as after a restart: every write is there.
        await inbox.finishWriting()
        let reopened = try Inbox(path: path, rules: SenderRules(ratePerHour: 2))
        #expect(try await reopened.slots().map(\.id) == ["a2"], "the slot and the message's body")
        #expect(try await reopened.receipt(id: "a1") == replaced)
        #expect(try await reopened.receipt(id: "a2")?.status == .accepted)
        guard case .rateLimited = try await reopened.accept(message("a3"), now: arrival + 1) else {
            Issue.record("alice's allowance of 2 an hour was not written")
            return
        }
    }
}

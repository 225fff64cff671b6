import FlapCore
import FlapStorage
import Foundation
import Testing

@testable import FlapMessaging

/// Group commit, and what the inbox now keeps on disk: rate buckets and receipt counts.
@Suite(.timeLimit(.minutes(3))) struct InboxGroupCommitTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("inbox-group-\(UUID().uuidString)")
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    var path: String { directory.appendingPathComponent("inbox.sqlite").path }

    func inbox(_ rules: SenderRules = SenderRules()) throws -> Inbox {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return try Inbox(path: path, rules: rules)
    }

    func message(_ id: String, from sender: String = "alice", created: TimeInterval = 0) -> Message {
        Message(
            id: id, sender: Sender(id: sender), content: .text("HI"), createdAt: t0 + created, expiresAt: t0 + created + 3600,
            source: MessageSource("test"))
    }

    @Test func messagesQueuedTogetherKeepTheirOrderAndEachGetsItsOwnOutcome() async throws {
        let inbox = try inbox(SenderRules(block: ["mallory"], ratePerHour: 2))
        var pending: [Inbox.PendingAcceptance] = []
        let ids = ["a1", "a2", "m1", "a3", "a1", "b1"]
        let senders = ["alice", "alice", "mallory", "alice", "alice", "bob"]
        for (i, (id, sender)) in zip(ids, senders).enumerated() {
            pending.append(await inbox.queueAccept(message(id, from: sender, created: Double(i)), now: t0 + Double(i)))
        }
        var outcomes: [String] = []
        for p in pending {
            switch try await p.value {
            case .accepted(let r): outcomes.append("accepted \(r.id)")
            case .duplicate(let r): outcomes.append("duplicate \(r.id)")
            case .refused: outcomes.append("refused")
            case .rateLimited: outcomes.append("rate limited")
            case .replayed, .keyReused: outcomes.append("idempotency")
            }
        }
        // The refusal, the rate limit and the duplicate inside the group fail nothing else.
        #expect(outcomes == ["accepted a1", "accepted a2", "refused", "rate limited", "duplicate a1", "accepted b1"])
        #expect(try await inbox.slots().map(\.id) == ["a2", "b1"])
    }

    @Test func whatIsQueuedWhileTheWriterWaitsIsCommittedTogether() async throws {
        let inbox = try inbox(SenderRules(ratePerHour: 0))
        let count = 1000
        // Queued in one turn of the actor: the first starts the writer at once, alone; the others
        // find it committing and wait together (as whatever arrives during a commit does),
        // however fast the machine.
        let pending = await inbox.queueInOneTurn((0..<count).map { message("m\($0)", from: "s\($0 % 7)", created: Double($0)) }, now: t0)
        for p in pending { _ = try await p.value }
        let stored = try await inbox.database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM message") ?? 0 }
        #expect(stored == count)
        // The first alone, then groups of at most 512: three transactions (each one fsync) for a
        // thousand messages.
        #expect(await inbox.transactionsCommitted == 3)
    }

    @Test func aLoneMessageIsCommittedAtOnce() async throws {
        let inbox = try inbox()
        // Not held back waiting for company: with nothing else ever queued, it is answered (a
        // writer that waited for a second message would never answer, and the suite's time
        // limit would say so), in a transaction of its own.
        _ = try await inbox.accept(message("alone"), now: t0)
        #expect(await inbox.transactionsCommitted == 1)
    }

    @Test func aRestartDoesNotRefillASendersAllowance() async throws {
        do {
            let inbox = try inbox(SenderRules(ratePerHour: 3))
            for i in 0..<3 { _ = try await inbox.accept(message("m\(i)", created: Double(i)), now: t0) }
        }
        let reopened = try inbox(SenderRules(ratePerHour: 3))
        guard case .rateLimited(let wait) = try await reopened.accept(message("m3", created: 3), now: t0 + 1) else {
            Issue.record("the restart refilled the bucket"); return
        }
        #expect(abs(wait - 1199) < 0.01)  // one token every 1200 s, 1 s of it gone
        guard case .accepted = try await reopened.accept(message("m4", created: 4), now: t0 + 1200) else {
            Issue.record("no token after 1200 s"); return
        }
    }

    @Test func countsFollowEveryChangeWithoutAScan() async throws {
        let inbox = try inbox()
        _ = try await inbox.accept(message("a1"), now: t0)
        _ = try await inbox.accept(message("a2", created: 1), now: t0)  // a1 superseded
        _ = try await inbox.accept(message("b1", from: "bob"), now: t0)
        try await inbox.markDisplayed("a2", panel: "main", board: Board(size: .flagship), now: t0 + 2)
        #expect(try await inbox.counts() == [.accepted: 1, .superseded: 1, .displayed: 1])
        try await inbox.prune(before: t0 + 10)  // a1 (superseded) goes; a2 still holds its slot
        #expect(try await inbox.counts() == [.accepted: 1, .displayed: 1])
        #expect(try await inbox.slotCount() == 2)
        // The counts come from their own table, kept by triggers in the same transactions.
        let kept = try await inbox.database.read { db in try Int.fetchOne(db, sql: "SELECT SUM(n) FROM receiptCount") }
        #expect(kept == 2)
    }

    @Test func outcomesAndFinalsAreAnnouncedInCommitOrder() async throws {
        let inbox = try inbox()
        var events = await inbox.events().makeAsyncIterator()
        let note = SubmissionNote(source: .mqtt)
        let first = await inbox.queueAccept(message("a1"), now: t0, note: note)
        let second = await inbox.queueAccept(message("a2", created: 1), now: t0, note: note)
        _ = try await (first.value, second.value)
        var seen: [String] = []
        for _ in 0..<3 {
            switch await events.next() {
            case .outcome(let id, .accepted, _)?: seen.append("accepted \(id)")
            case .final(let r)?: seen.append("\(r.status.rawValue) \(r.id)")
            default: seen.append("?")
            }
        }
        #expect(seen == ["accepted a1", "superseded a1", "accepted a2"])
    }
}

extension Inbox {
    /// Queues `messages` for acceptance without leaving the actor between them.
    func queueInOneTurn(_ messages: [Message], now: Date) -> [Pending<Acceptance>] {
        messages.map { message in
            enqueue { try $0.accept(message, now: now, note: nil, repetition: .newUnlessCurrent, claim: nil) }
        }
    }
}

import FlapCore
import FlapStorage
import Foundation
import Testing

@testable import FlapMessaging

/// The inbox stays the size its retention makes it: final receipts 30 days and at most the
/// newest few, bodies only for messages a slot may still show, the WAL checkpointed.
@Suite struct InboxRetentionTests {
    let suite = InboxTests()
    var t0: Date { suite.t0 }

    @Test func finalReceiptsBeyondTheNewestAreForgottenButNoSlotIsTouched() async throws {
        let inbox = try suite.inbox(SenderRules(ratePerHour: 0))
        // 10 senders × 30 messages: each sender's newest holds its slot, the rest are superseded.
        for index in 0..<300 {
            _ = try await inbox.accept(suite.message("m\(index)", from: "s\(index % 10)", created: Double(index)), now: t0 + Double(index))
        }
        #expect(try await inbox.counts() == [.accepted: 10, .superseded: 290])
        try await inbox.prune(before: t0 - 1, keep: 25)
        #expect(try await inbox.counts() == [.accepted: 10, .superseded: 25])
        // The newest superseded receipts are the ones kept; every slot still answers.
        #expect(try await inbox.receipt(id: "m289")?.status == .superseded)
        #expect(try await inbox.receipt(id: "m0") == nil)
        #expect(Set(try await inbox.slots().map(\.id)) == Set((290..<300).map { "m\($0)" }))
        // A slot's message resent is still a duplicate.
        guard case .duplicate = try await inbox.accept(suite.message("m299", from: "s9", created: 299), now: t0 + 400) else {
            Issue.record("a slot's message was forgotten"); return
        }
    }

    @Test func aFinalMessageNoSlotHoldsKeepsItsReceiptButNotItsBody() async throws {
        let inbox = try suite.inbox()
        _ = try await inbox.accept(suite.message("old", text: String(repeating: "A", count: 120)), now: t0)
        _ = try await inbox.accept(suite.message("new", created: 1), now: t0 + 1)
        try await inbox.prune(before: t0 - 1)
        let sizes = try await inbox.database.read { db in
            try Dictionary(
                uniqueKeysWithValues: SQLiteRow.fetchAll(db, sql: "SELECT id, length(body) AS n FROM message").map {
                    (try $0["id"] as String, try $0["n"] as Int)
                })
        }
        #expect(sizes["old"] == 0 && (sizes["new"] ?? 0) > 0, "\(sizes)")
        #expect(try await inbox.receipt(id: "old")?.status == .superseded)
        #expect(try await inbox.slots().map(\.id) == ["new"])
    }

    @Test func pruningCheckpointsTheWALAndCutsItBack() async throws {
        let inbox = try suite.inbox(SenderRules(ratePerHour: 0))
        for index in 0..<2000 {
            _ = try await inbox.accept(
                suite.message("w\(index)", from: "s\(index % 50)", created: Double(index), text: String(repeating: "W", count: 100)),
                now: t0 + Double(index))
        }
        let wal = suite.directory.appendingPathComponent("inbox.sqlite-wal").path
        let before = try FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int ?? 0
        try await inbox.prune(before: t0 - 1)
        let after = try FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int ?? 0
        #expect(before > 0 && after == 0, "WAL \(before) → \(after) bytes")
    }
}

import FlapCore
import Foundation
import Testing

@testable import FlapMessaging

/// The inbox rules of docs/messages.md, one by one, on a real SQLite file.
@Suite struct InboxTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("inbox-\(UUID().uuidString)")
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    func inbox(_ rules: SenderRules = SenderRules()) throws -> Inbox {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return try Inbox(path: directory.appendingPathComponent("inbox.sqlite").path, rules: rules)
    }

    func message(
        _ id: String, from sender: String = "alice", created: TimeInterval = 0, lifetime: TimeInterval = 3600, text: String = "HI"
    ) -> Message {
        Message(
            id: id, sender: Sender(id: sender), content: .text(text),
            createdAt: t0 + created, expiresAt: t0 + created + lifetime, source: MessageSource("test"))
    }

    func status(_ inbox: Inbox, _ id: String) async throws -> ReceiptStatus? {
        try await inbox.receipt(id: id)?.status
    }

    @Test func aNewerMessageReplacesTheOlderInItsSlot() async throws {
        let inbox = try inbox()
        _ = try await inbox.accept(message("a1"), now: t0)
        _ = try await inbox.accept(message("a2", created: 10), now: t0 + 10)
        #expect(try await inbox.slots().map(\.id) == ["a2"])
        #expect(try await status(inbox, "a1") == .superseded)
        #expect(try await status(inbox, "a2") == .accepted)
    }

    @Test func aLateOlderMessageNeverRegressesASlot() async throws {
        let inbox = try inbox()
        _ = try await inbox.accept(message("new", created: 100), now: t0 + 100)
        let late = try await inbox.accept(message("old", created: 50), now: t0 + 101)
        guard case .accepted(let receipt) = late else { Issue.record("\(late)"); return }
        #expect(receipt.status == .superseded)
        #expect(try await inbox.slots().map(\.id) == ["new"])
    }

    @Test func eachSenderHasItsOwnSlot() async throws {
        let inbox = try inbox()
        _ = try await inbox.accept(message("a", from: "alice", created: 5), now: t0)
        _ = try await inbox.accept(message("b", from: "bob", created: 1), now: t0)
        #expect(try await inbox.slots().map(\.id) == ["b", "a"])
    }

    @Test func aDuplicateChangesNothingAndDoesNotCountAgainstTheRate() async throws {
        let inbox = try inbox(SenderRules(ratePerHour: 1))
        #expect(try await inbox.accept(message("x"), now: t0) == .accepted(try await inbox.receipt(id: "x")!))
        for _ in 0..<3 {
            guard case .duplicate = try await inbox.accept(message("x", text: "CHANGED"), now: t0) else {
                Issue.record("expected a duplicate"); return
            }
        }
        #expect(try await inbox.slots().first?.content == .text("HI"))
    }

    @Test func theRateLimitIsATokenBucketPerSender() async throws {
        let inbox = try inbox(SenderRules(ratePerHour: 50))
        for i in 0..<50 {
            guard case .accepted = try await inbox.accept(message("m\(i)", created: Double(i)), now: t0) else {
                Issue.record("message \(i) refused"); return
            }
        }
        guard case .rateLimited(let wait) = try await inbox.accept(message("m50", created: 50), now: t0) else {
            Issue.record("51st message accepted"); return
        }
        #expect(abs(wait - 72) < 0.001)  // one token every 3600 / 50 s
        guard case .accepted = try await inbox.accept(message("other", from: "bob"), now: t0) else {
            Issue.record("another sender was limited"); return
        }
        guard case .accepted = try await inbox.accept(message("m51", created: 51), now: t0 + 72) else {
            Issue.record("no token after 72 s"); return
        }
        #expect(try await inbox.receipt(id: "m50") == nil)
    }

    @Test func allowAndBlockListsRefuseWithoutStoring() async throws {
        let blocked = try inbox(SenderRules(block: ["mallory"]))
        #expect(try await blocked.accept(message("b", from: "mallory"), now: t0) == .refused("sender mallory is blocked"))
        #expect(try await blocked.receipt(id: "b") == nil)
        let allowed = try inbox(SenderRules(allow: ["alice"]))
        #expect(try await allowed.accept(message("c", from: "bob"), now: t0) == .refused("sender bob is not on the allow list"))
        guard case .accepted = try await allowed.accept(message("d", from: "alice"), now: t0) else { Issue.record("alice refused"); return }
    }

    @Test func expiredSlotsClearAndTheirMessagesExpire() async throws {
        let inbox = try inbox()
        _ = try await inbox.accept(message("short", lifetime: 60), now: t0)
        _ = try await inbox.accept(message("long", from: "bob", lifetime: 600), now: t0)
        #expect(try await inbox.nextExpiry() == t0 + 60)
        #expect(try await inbox.expire(now: t0 + 59) == 0)
        #expect(try await inbox.expire(now: t0 + 60) == 1)
        #expect(try await status(inbox, "short") == .expired)
        #expect(try await inbox.slots().map(\.id) == ["long"])
    }

    @Test func aMessageExpiredOnArrivalIsFinalAtOnce() async throws {
        let inbox = try inbox()
        guard case .accepted(let receipt) = try await inbox.accept(message("stale", lifetime: 10), now: t0 + 20) else { return }
        #expect(receipt.status == .expired)
        #expect(try await inbox.slots().isEmpty)
    }

    @Test func everyMessageEndsWithExactlyOneFinalReceipt() async throws {
        let inbox = try inbox()
        _ = try await inbox.accept(message("a1"), now: t0)
        try await inbox.markDisplayed("a1", panel: "main", board: Board(size: .flagship), now: t0 + 5)
        // Replaced after it was shown: it stays displayed.
        _ = try await inbox.accept(message("a2", created: 10), now: t0 + 10)
        #expect(try await status(inbox, "a1") == .displayed)
        // Expiry after display does not change the receipt either.
        try await inbox.markDisplayed("a2", panel: "main", board: Board(size: .flagship), now: t0 + 11)
        try await inbox.expire(now: t0 + 10_000)
        #expect(try await status(inbox, "a2") == .displayed)
        let receipt = try #require(try await inbox.receipt(id: "a2"))
        #expect(receipt.finalAt == t0 + 11)
    }

    @Test func clearingASlotSupersedesAMessageNotYetShown() async throws {
        let inbox = try inbox()
        _ = try await inbox.accept(message("a"), now: t0)
        #expect(try await inbox.clearSlot("alice", now: t0 + 1))
        #expect(try await status(inbox, "a") == .superseded)
        #expect(try await inbox.receipt(id: "a")?.reason == "slot cleared")
        #expect(try await inbox.clearSlot("alice", now: t0 + 2) == false)
    }

    @Test func everythingCommittedSurvivesReopening() async throws {
        do {
            let inbox = try inbox()
            _ = try await inbox.accept(message("kept"), now: t0)
            try await inbox.markDisplayed("kept", panel: "main", board: Board(size: .note, fill: CharacterCode(5)!), now: t0 + 1)
        }
        let reopened = try inbox()
        #expect(try await reopened.slots().map(\.id) == ["kept"])
        #expect(try await status(reopened, "kept") == .displayed)
        let state = try #require(try await reopened.panelState("main"))
        #expect(state.codes.count == 45 && state.messageId == "kept")
        guard case .duplicate = try await reopened.accept(message("kept"), now: t0 + 2) else { Issue.record("not a duplicate"); return }
    }
}

extension InboxTests {
    @Test func everyFinalReceiptIsAnnouncedOnceAfterCommit() async throws {
        let inbox = try inbox()
        var events = await inbox.events().makeAsyncIterator()
        _ = try await inbox.accept(message("a1"), now: t0)
        _ = try await inbox.accept(message("a2", created: 10), now: t0 + 10)  // a1 superseded
        _ = try await inbox.accept(message("old", created: 5), now: t0 + 11)  // late older: superseded at once
        try await inbox.markDisplayed("a2", panel: "main", board: Board(size: .flagship), now: t0 + 12)
        try await inbox.markDisplayed("a2", panel: "main", board: Board(size: .flagship), now: t0 + 13)  // no second receipt
        _ = try await inbox.accept(message("b", from: "bob", lifetime: 60), now: t0 + 14)
        try await inbox.expire(now: t0 + 100)
        var seen: [String] = []
        for _ in 0..<4 { if case .final(let r) = await events.next() { seen.append("\(r.id) \(r.status.rawValue)") } }
        #expect(seen == ["a1 superseded", "old superseded", "a2 displayed", "b expired"])
    }
}

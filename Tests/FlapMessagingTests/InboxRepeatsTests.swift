import FlapCore
import FlapJSON
import Foundation
import Testing

@testable import FlapMessaging

/// Saying the same thing again (docs/messages.md): a message without an id is new
/// unless it is a copy of its sender's current message; an empty text clears; idempotency keys.
@Suite struct InboxRepeatsTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("repeats-\(UUID().uuidString)")
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    let parser = MessageParser(boardSize: .flagship, source: .nativeAPI)

    func inbox() throws -> Inbox {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return try Inbox(path: directory.appendingPathComponent("inbox.sqlite").path)
    }

    /// A message as the API would take it at `t0 + at`, with no id.
    func parsed(_ json: String, at: TimeInterval = 0, source: MessageSource = .nativeAPI) throws -> Message {
        try MessageParser(boardSize: .flagship, source: source).parse(Array(json.utf8), now: t0 + at).0
    }

    func send(_ inbox: Inbox, _ json: String, at: TimeInterval, repetition: Repetition = .newUnlessCurrent) async throws -> Acceptance {
        try await inbox.accept(parsed(json, at: at), now: t0 + at, repetition: repetition)
    }

    func shown(_ inbox: Inbox) async throws -> [Content] { try await inbox.slots().map(\.content) }

    @Test func idsAreRandomAndSayNothingAboutTheContent() throws {
        let a = try parsed(#"{"text": "DINNER READY", "sender": {"id": "mom"}}"#)
        let b = try parsed(#"{"text": "DINNER READY", "sender": {"id": "mom"}}"#)
        #expect(a.id != b.id)
        #expect(a.id.wholeMatch(of: /m-[0-9a-f]{32}/) != nil)
        #expect(a.repeatKey == b.repeatKey && a.repeatKey != nil)
        #expect(a.id != a.repeatKey)
        #expect(try parsed(#"{"id": "given", "text": "X"}"#).repeatKey == nil)
    }

    @Test func aRepeatAfterSomethingNewerIsANewMessageShownAgain() async throws {
        let inbox = try inbox()
        guard case .accepted(let first) = try await send(inbox, #"{"text": "DINNER READY", "sender": {"id": "mom"}}"#, at: 0),
            case .accepted(let second) = try await send(inbox, #"{"text": "OUT", "sender": {"id": "mom"}}"#, at: 6),
            case .accepted(let third) = try await send(inbox, #"{"text": "DINNER READY", "sender": {"id": "mom"}}"#, at: 12)
        else { Issue.record("a send was not accepted"); return }
        #expect(Set([first.id, second.id, third.id]).count == 3)
        #expect(try await shown(inbox) == [.text("DINNER READY")])
        #expect(try await inbox.slots().first?.id == third.id)
        // Each send has its own receipt.
        #expect(try await inbox.receipt(id: first.id)?.status == .superseded)
        #expect(try await inbox.receipt(id: second.id)?.status == .superseded)
        #expect(try await inbox.receipt(id: third.id)?.status == .accepted)
        // Receipts name their messages by what they said.
        #expect(try await inbox.recentReceipts(limit: 3).map(\.text) == ["DINNER READY", "OUT", "DINNER READY"])
    }

    @Test func aCopyOfTheCurrentMessageIsTheSameMessage() async throws {
        let inbox = try inbox()
        guard case .accepted(let first) = try await send(inbox, #"{"text": "HELLO"}"#, at: 0) else { Issue.record("not accepted"); return }
        // A client retrying before anything else arrived.
        #expect(try await send(inbox, #"{"text": "HELLO"}"#, at: 1) == .duplicate(try await inbox.receipt(id: first.id)!))
        // Shown to the end, it is still the current message.
        try await inbox.markDisplayed(first.id, panel: "main", board: Board(size: .flagship), now: t0 + 5)
        guard case .duplicate(let again) = try await send(inbox, #"{"text": "HELLO"}"#, at: 6) else { Issue.record("not a duplicate"); return }
        #expect(again.id == first.id)
    }

    @Test func theSameTextFromAnotherSourceOrWithAnotherCreatedAtIsNew() async throws {
        let inbox = try inbox()
        _ = try await send(inbox, #"{"text": "HELLO", "sender": {"id": "k"}}"#, at: 0)
        guard case .accepted = try await inbox.accept(parsed(#"{"text": "HELLO", "sender": {"id": "k"}}"#, at: 1, source: .mqtt), now: t0 + 1),
            case .accepted = try await send(inbox, #"{"text": "HELLO", "sender": {"id": "k"}, "createdAt": "2027-01-15T08:00:03Z"}"#, at: 3)
        else { Issue.record("not new"); return }
    }

    @Test func aTransportsCopyMatchesAnyEarlierMessageButARepeatAfterExpiryOrClearingIsNew() async throws {
        let inbox = try inbox()
        guard case .accepted(let a) = try await send(inbox, #"{"text": "A", "sender": {"id": "s"}}"#, at: 0),
            case .accepted = try await send(inbox, #"{"text": "B", "sender": {"id": "s"}}"#, at: 1)
        else { Issue.record("not accepted"); return }
        // An MQTT redelivery (DUP) or retained copy of A, after B: still A.
        #expect(
            try await send(inbox, #"{"text": "A", "sender": {"id": "s"}}"#, at: 2, repetition: .copyOfAnyEarlier)
                == .duplicate(try await inbox.receipt(id: a.id)!))
        #expect(try await shown(inbox) == [.text("B")])
        // Cleared, the same text again is new.
        _ = try await inbox.clearSlot("s", now: t0 + 3)
        guard case .accepted = try await send(inbox, #"{"text": "B", "sender": {"id": "s"}}"#, at: 4) else {
            Issue.record("not new after a clear"); return
        }
        // Expired, too.
        _ = try await inbox.expire(now: t0 + 4 + Message.defaultLifetime)
        guard case .accepted = try await send(inbox, #"{"text": "B", "sender": {"id": "s"}}"#, at: 5 + Message.defaultLifetime) else {
            Issue.record("not new after expiry"); return
        }
    }

    @Test func theLocalAPIsWritesAreAlwaysNew() async throws {
        let inbox = try inbox()
        let rows = Array(repeating: Array(repeating: 5, count: 22), count: 6)
        for second in 0..<2 {
            guard
                case .accepted = try await inbox.accept(
                    try MessageParser(boardSize: .flagship, source: .localAPI).parse(
                        ["codes": .array(rows.map { .array($0.map { .number(Double($0)) }) })], now: t0
                    ).0,
                    now: t0 + Double(second), repetition: .alwaysNew)
            else { Issue.record("write \(second) not new"); return }
        }
    }

    @Test func anEmptyTextClearsItsSendersSlotWithAClearedReceipt() async throws {
        let inbox = try inbox()
        guard case .accepted(let hello) = try await send(inbox, #"{"text": "HELLO", "sender": {"id": "ha"}}"#, at: 0),
            case .accepted = try await send(inbox, #"{"text": "OTHER", "sender": {"id": "someone"}}"#, at: 0),
            case .accepted(let clear) = try await send(inbox, #"{"text": "   ", "sender": {"id": "ha"}}"#, at: 1)
        else { Issue.record("not accepted"); return }
        #expect(clear.status == .cleared)
        #expect(try await inbox.receipt(id: hello.id)?.status == .superseded)
        #expect(try await inbox.receipt(id: hello.id)?.reason == "slot cleared by \(clear.id)")
        #expect(try await shown(inbox) == [.text("OTHER")])
        #expect(try await inbox.counts()[.cleared] == 1)
        // HELLO again after the clear shows again.
        guard case .accepted = try await send(inbox, #"{"text": "HELLO", "sender": {"id": "ha"}}"#, at: 2) else { Issue.record("not new"); return }
        #expect(try await shown(inbox).contains(.text("HELLO")))
    }

    @Test func anIdempotencyKeyAnswersTheFirstAnswerAgainAndRefusesAnotherRequest() async throws {
        let inbox = try inbox()
        let body = #"{"text": "HELLO"}"#
        let claim = IdempotencyClaim(client: "owner", key: "k1", request: Array(body.utf8), warnings: ["w"])
        guard case .accepted(let first) = try await inbox.accept(parsed(body), now: t0, claim: claim) else { Issue.record("not accepted"); return }
        // Something newer, then the same request again: no second message.
        _ = try await send(inbox, #"{"text": "OTHER"}"#, at: 1)
        #expect(
            try await inbox.accept(parsed(body, at: 2), now: t0 + 2, claim: claim)
                == .replayed(IdempotentAnswer(id: first.id, status: .accepted, warnings: ["w"], duplicate: false)))
        #expect(try await shown(inbox) == [.text("OTHER")])
        let other = IdempotencyClaim(client: "owner", key: "k1", request: Array(#"{"text": "BYE"}"#.utf8))
        #expect(try await inbox.accept(parsed(#"{"text": "BYE"}"#, at: 3), now: t0 + 3, claim: other) == .keyReused)
        // Another client's key of the same name is its own.
        let stranger = IdempotencyClaim(client: "member:1", key: "k1", request: Array(body.utf8))
        guard case .accepted(let theirs) = try await inbox.accept(parsed(body, at: 4), now: t0 + 4, claim: stranger) else {
            Issue.record("not its own"); return
        }
        // A day later the key is forgotten: the request is taken as any other (here a copy of the current message).
        guard case .duplicate(let current) = try await inbox.accept(parsed(body, at: 90_000), now: t0 + 90_000, claim: claim) else {
            Issue.record("still remembered"); return
        }
        #expect(current.id == theirs.id)
    }
}

@Suite struct ReceiptTextTests {
    @Test func aSummaryJoinsLinesAndIsShort() {
        let t0 = Date(timeIntervalSince1970: 1_800_000_000)
        func message(_ content: Content) -> Message {
            Message(id: "x", sender: Sender(id: "s"), content: content, createdAt: t0, expiresAt: t0 + 60, source: MessageSource("test"))
        }
        #expect(message(.text("DINNER\nAT 7")).summary == "DINNER / AT 7")
        #expect(message(.codes([[63]])).summary == "(painting)")
        let long = message(.text(String(repeating: "A", count: 200))).summary
        #expect(long.count == 80 && long.hasSuffix("…"))
    }
}

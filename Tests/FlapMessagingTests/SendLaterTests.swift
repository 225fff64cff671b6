import FlapCore
import Foundation
import Testing

@testable import FlapMessaging

/// Messages sent for later: read with notBefore, kept as scheduled, released into their slots
/// at their instants, cancelled while they wait; on a real SQLite file.
@Suite struct SendLaterTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("send-later-\(UUID().uuidString)")
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    let parser = MessageParser(boardSize: .flagship, source: .nativeAPI)

    func inbox() throws -> Inbox {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return try Inbox(path: directory.appendingPathComponent("inbox.sqlite").path)
    }

    func message(_ id: String, from sender: String = "alice", created: TimeInterval = 0, at notBefore: TimeInterval? = nil) -> Message {
        let shows = t0 + max(created, notBefore ?? created)
        return Message(
            id: id, sender: Sender(id: sender), content: .text(id.uppercased()), createdAt: t0 + created,
            expiresAt: shows + 3600, notBefore: notBefore.map { t0 + $0 }, source: MessageSource("test"))
    }

    func problems(_ json: String) -> [String] {
        do { _ = try parser.parse(Array(json.utf8), now: t0); return [] } catch { return error.problems.map(\.description) }
    }

    @Test func notBeforeIsReadAndTheDefaultExpiryCountsFromIt() throws {
        let (m, _) = try parser.parse(Array(#"{"text": "later", "notBefore": "2027-02-15T07:00:00+01:00"}"#.utf8), now: t0)
        let instant = try Date("2027-02-15T06:00:00Z", strategy: .iso8601)
        #expect(m.notBefore == instant && m.expiresAt == instant + 48 * 3600 && m.showsFrom == instant)
    }

    @Test func bypassQuietHoursIsRead() throws {
        #expect(try parser.parse(Array(#"{"text": "FIRE", "bypassQuietHours": true}"#.utf8), now: t0).0.bypassQuietHours == true)
        #expect(try parser.parse(Array(#"{"text": "x"}"#.utf8), now: t0).0.bypassQuietHours == nil)
        #expect(problems(#"{"text": "x", "bypassQuietHours": "yes"}"#).first?.hasPrefix("bypassQuietHours:") == true)
    }

    @Test func badTimesNameTheirFields() {
        #expect(
            problems(#"{"text": "x", "notBefore": "next tuesday"}"#) == [
                "notBefore: \"next tuesday\" is not an ISO 8601 time such as 2026-11-22T08:30:00Z"
            ])
        let found = problems(#"{"text": "x", "notBefore": "2027-01-15T07:00:00Z", "expiresAt": "2027-01-15T06:00:00Z"}"#)
        #expect(found.count == 1 && found[0].hasPrefix("expiresAt:") && found[0].contains("notBefore") && found[0].contains("2027-01-15T07:00:00Z"))
    }

    @Test func aMessageForLaterWaitsThenTakesItsSlotAtItsInstant() async throws {
        let inbox = try inbox()
        guard case .accepted(let receipt) = try await inbox.accept(message("later", at: 600), now: t0) else { Issue.record("not accepted"); return }
        #expect(receipt.status == .scheduled && receipt.notBefore == t0 + 600)
        #expect(try await inbox.slots().isEmpty)
        #expect(try await inbox.nextRelease() == t0 + 600)
        #expect(try await inbox.release(now: t0 + 599) == 0)
        #expect(try await inbox.release(now: t0 + 600) == 1)
        #expect(try await inbox.slots().map(\.id) == ["later"])
        #expect(try await inbox.receipt(id: "later")?.status == .accepted)
        #expect(try await inbox.nextRelease() == nil)
        let counts = try await inbox.counts()
        #expect(counts[.scheduled] == nil && counts[.accepted] == 1)
    }

    @Test func atItsInstantItReplacesWhatTheSenderSentMeanwhile() async throws {
        let inbox = try inbox()
        _ = try await inbox.accept(message("breakfast", at: 3600), now: t0)
        _ = try await inbox.accept(message("meanwhile", created: 60), now: t0 + 60)
        #expect(try await inbox.slots().map(\.id) == ["meanwhile"])
        try await inbox.release(now: t0 + 3600)
        #expect(try await inbox.slots().map(\.id) == ["breakfast"])
        #expect(try await inbox.receipt(id: "meanwhile")?.status == .superseded)
    }

    @Test func dueTogetherTheLaterOneWinsAndAnExpiredOneExpires() async throws {
        let inbox = try inbox()
        _ = try await inbox.accept(message("first", at: 100), now: t0)
        _ = try await inbox.accept(message("second", at: 200), now: t0)
        var gone = message("gone", from: "bob", at: 300)
        gone.expiresAt = t0 + 330
        _ = try await inbox.accept(gone, now: t0)
        // flapd was off until after all three were due, and after the last one's expiry.
        #expect(try await inbox.release(now: t0 + 360) == 3)
        #expect(try await inbox.slots().map(\.id) == ["second"])
        #expect(try await inbox.receipt(id: "first")?.status == .superseded)
        #expect(try await inbox.receipt(id: "gone")?.status == .expired)
        #expect(try await inbox.receipt(id: "gone")?.reason == "expired before its time came")
    }

    @Test func aWaitingMessageCanBeCancelledAndOnlyThen() async throws {
        let inbox = try inbox()
        _ = try await inbox.accept(message("later", at: 600), now: t0)
        _ = try await inbox.accept(message("now", from: "bob"), now: t0)
        #expect(try await inbox.scheduled().map(\.receipt.id) == ["later"])
        #expect(try await inbox.cancel("later", now: t0 + 1) == .cancelled)
        #expect(try await inbox.cancel("later", now: t0 + 2) == .cancelled)
        #expect(try await inbox.cancel("now", now: t0 + 2) == .accepted)
        #expect(try await inbox.cancel("never", now: t0 + 2) == nil)
        #expect(try await inbox.release(now: t0 + 600) == 0)
        #expect(try await inbox.scheduled().isEmpty)
        #expect(try await inbox.receipt(id: "later")?.status == .cancelled)
    }

    @Test func aWaitingMessageOutlivesTheProcess() async throws {
        do {
            let inbox = try inbox()
            _ = try await inbox.accept(message("later", at: 600), now: t0)
        }
        let reopened = try inbox()
        #expect(try await reopened.scheduled().map(\.message) == [message("later", at: 600)])
        #expect(try await reopened.release(now: t0 + 601) == 1)
        #expect(try await reopened.slots().map(\.id) == ["later"])
    }
}

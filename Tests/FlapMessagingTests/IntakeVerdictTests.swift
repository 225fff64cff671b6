import FlapCore
import Foundation
import Synchronization
import Testing

@testable import FlapMessaging

/// The intake counts each message once, whichever transport brought it: what the inbox
/// decided, what the parser refused, and what a transport refused before the intake.
@Suite struct IntakeVerdictTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("intake-\(UUID().uuidString)")
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    /// The verdicts an intake has given so far.
    final class Verdicts: Sendable {
        private let given = Mutex<[IntakeVerdict]>([])
        func append(_ verdict: IntakeVerdict) { given.withLock { $0.append(verdict) } }
        var all: [IntakeVerdict] { given.withLock { $0 } }
    }

    /// An intake on a fresh inbox, and the verdicts it has given so far.
    func intake(_ rules: SenderRules = SenderRules()) throws -> (MessageIntake, Verdicts) {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let inbox = try Inbox(path: directory.appendingPathComponent("inbox.sqlite").path, rules: rules)
        var intake = MessageIntake(inbox: inbox, boardSize: .flagship, now: { [t0] in t0 })
        let verdicts = Verdicts()
        intake.verdicts = { verdicts.append($0) }
        return (intake, verdicts)
    }

    func json(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func anAcceptedMessageIsCountedOnceAndItsCopyNotAtAll() async throws {
        let (intake, verdicts) = try intake()
        defer { try? FileManager.default.removeItem(at: directory) }
        let body = json(#"{"id": "hello-1", "text": "HELLO", "sender": {"id": "alice"}}"#)
        guard case .accepted(let receipt, _) = try await intake.submit(json: body, source: .nativeAPI) else {
            Issue.record("the message was not accepted")
            return
        }
        guard case .duplicate = try await intake.submit(json: body, source: .nativeAPI) else {
            Issue.record("the copy was not told from the first")
            return
        }
        #expect(verdicts.all == [.accepted(id: receipt.id, source: .nativeAPI)])
    }

    @Test func theParsersRefusalIsCountedAsInvalid() async throws {
        let (intake, verdicts) = try intake()
        defer { try? FileManager.default.removeItem(at: directory) }
        guard case .invalid = try await intake.submit(json: json(#"{"text": 5}"#), source: .localAPI) else {
            Issue.record("a number for text was taken")
            return
        }
        #expect(verdicts.all == [.rejected(source: .localAPI, reason: .invalid)])
    }

    @Test func theInboxsRefusalsAreCountedWithTheirReasons() async throws {
        let (intake, verdicts) = try intake(SenderRules(block: ["mallory"], ratePerHour: 1))
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try await intake.submit(json: json(#"{"text": "HI", "sender": {"id": "mallory"}}"#), source: .mqtt)
        _ = try await intake.submit(json: json(#"{"text": "ONE", "sender": {"id": "bob"}}"#), source: .mqtt)
        guard case .rateLimited = try await intake.submit(json: json(#"{"text": "TWO", "sender": {"id": "bob"}}"#), source: .mqtt) else {
            Issue.record("a second message in the hour was taken at a rate of one")
            return
        }
        let given = verdicts.all
        #expect(given.count == 3)
        #expect(given.first == .rejected(source: .mqtt, reason: .refused))
        #expect(given.last == .rejected(source: .mqtt, reason: .rateLimited))
    }

    @Test func aTransportsRefusalIsCountedBesideTheIntakes() throws {
        let (intake, verdicts) = try intake()
        defer { try? FileManager.default.removeItem(at: directory) }
        intake.refuse(.tooLarge, source: .localAPI)
        #expect(verdicts.all == [.rejected(source: .localAPI, reason: .tooLarge)])
        #expect(RejectionReason.tooLarge.rawValue == "too_large", "the label /metrics has always carried")
    }
}

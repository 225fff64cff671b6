import Foundation
import TestSupport
import Testing

/// A row the inbox cannot read (a value that is not what flapd wrote: the file damaged, or edited
/// by hand) is reported once, with the file and table, and skipped: flapd starts, and every other
/// message is served. Before, it was a crash at every start under Restart=on-failure.
@Suite(.serialized, .cleansUp, .timeLimit(.minutes(2))) struct DamagedRowTests {
    @Test func aRowWithAValueFlapdDidNotWriteIsReportedAndSkipped() async throws {
        let first = try await InProcessFlapd.start(arguments: ["--no-sound", "--rate-limit", "0"])
        #expect(try await first.api.postJSON("/v1/messages", #"{"text": "GOOD ONE", "sender": {"id": "good"}}"#).status == 202)
        #expect(try await first.api.postJSON("/v1/messages", #"{"text": "BAD ONE", "sender": {"id": "bad"}}"#).status == 202)
        await first.stop()

        // NULL and text where flapd wrote a blob and a number.
        let inbox = first.stateDirectory + "/inbox.sqlite"
        let script = """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute("UPDATE message SET body = 'not json', createdAt = 'yesterday', reason = NULL WHERE sender = 'bad'")
            db.commit()
            """
        let edited = try await ProcessRunner.run(try await PythonPeer.python(), ["-c", script, inbox])
        #expect(edited.status == 0, "\(edited.stderrText)")

        let second = try await InProcessFlapd.start(stateDirectory: first.stateDirectory, arguments: ["--no-sound"])
        let slots = try await second.api.get("/v1/slots")
        #expect(slots.status == 200 && slots.text.contains("GOOD ONE") && !slots.text.contains("BAD ONE"), "\(slots.text)")
        let receipts = try await second.api.get("/v1/receipts")
        #expect(receipts.status == 200 && receipts.text.contains(#""sender":"good""#), "\(receipts.text)")
        #expect(try await second.api.postJSON("/v1/messages", #"{"text": "STILL WORKS", "sender": {"id": "other"}}"#).status == 202)
        let said = second.said
        #expect(said.contains("a row of message in \(inbox) cannot be read and is skipped"), "\(said.suffix(2000))")
        await second.stop()
    }
}

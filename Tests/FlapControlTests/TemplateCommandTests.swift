import Foundation
import TestSupport
import Testing

/// `flapctl template` against a running flapd: quick messages saved, listed, sent, renamed,
/// deleted, kept across a restart, at most 20.
@Suite(.cleansUp, .timeLimit(.minutes(2))) struct TemplateCommandTests {
    let flapctl = ProcessRunner.builtProduct("flapctl")

    @Test func saveListSendRenameDeleteAndAtMostTwenty() async throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("templates-\(UUID().uuidString)").path
        let first = try await FlapdProcess.start(stateDirectory: state, arguments: ["--no-sound"])
        var env = first.clientEnvironment
        func run(_ arguments: [String]) async throws -> ProcessRunner.Result {
            try await ProcessRunner.run(flapctl, ["template"] + arguments, environment: env)
        }

        let saved = try await run(["save", "lunch", "LUNCH IS READY"])
        #expect(saved.status == 0 && saved.stdoutText == "saved lunch\n", "\(saved.stderrText)")
        #expect(try await run(["save", "lunch", "LUNCH IS\\nREADY", "--align", "left"]).stdoutText == "replaced lunch\n")
        let bad = try await run(["save", "oops", "PRICE {99} 5"])
        #expect(bad.status == 2 && bad.stderrText.contains("text"), "\(bad.stderrText)")
        #expect(try await run(["list"]).stdoutText == "lunch  LUNCH IS / READY\n")

        let sent = try await run(["send", "lunch"])
        #expect(sent.status == 0 && !sent.stdoutText.isEmpty, "\(sent.stderrText)")
        let shown = try await eventually(every: .milliseconds(100)) { try await first.api.get("/v1/board").text.contains("LUNCH IS") }
        #expect(shown)
        // Sent again, it is a new message, not a duplicate.
        let again = try await run(["send", "lunch"])
        #expect(again.status == 0 && again.stdoutText != sent.stdoutText)

        #expect(try await run(["rename", "lunch", "food"]).stdoutText == "renamed lunch to food\n")
        #expect(try await run(["send", "lunch"]).stderrText.contains("404"))

        // Kept across a restart.
        await first.stop()
        let second = try await FlapdProcess.start(stateDirectory: state, arguments: ["--no-sound"])
        teardown { await second.stop() }
        env = second.clientEnvironment
        #expect(try await run(["list"]).stdoutText.hasPrefix("food  "))

        for i in 2...20 { #expect(try await run(["save", "t\(i)", "QUICK \(i)"]).status == 0) }
        let full = try await run(["save", "t21", "ONE TOO MANY"])
        #expect(full.status == 1 && full.stderrText.contains("20 quick messages"), "\(full.stderrText)")
        #expect(try await run(["delete", "food"]).stdoutText == "deleted food\n")
        #expect(try await run(["save", "t21", "NOW THERE IS ROOM"]).status == 0)
    }
}

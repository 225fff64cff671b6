import Foundation
import TestSupport
import Testing

/// flapctl send, board, status and slots against a running flapd.
@Suite(.cleansUp, .timeLimit(.minutes(3))) struct ClientCommandTests {
    let flapctl = ProcessRunner.builtProduct("flapctl")

    func run(_ arguments: [String], flapd: FlapdProcess?, key: String? = nil) async throws -> ProcessRunner.Result {
        var environment = ProcessInfo.processInfo.environment
        environment["FLAPD_URL"] = flapd.map { "http://127.0.0.1:\($0.apiPort)" } ?? "http://127.0.0.1:9"
        environment["FLAPD_API_KEY"] = key ?? flapd?.apiKey
        return try await ProcessRunner.run(flapctl, arguments, environment: environment)
    }

    @Test func sendWaitsUntilTheMessageIsShownAndBoardShowsIt() async throws {
        let flapd = try await FlapdProcess.start()
        teardown { await flapd.stop() }
        let sent = try await run(["send", "--sender", "desk", "--id", "hello-1", "--wait", "Hi"], flapd: flapd)
        #expect(sent.status == 0, "\(sent.stderrText)")
        #expect(sent.stdoutText == "hello-1\ndisplayed\n")
        let board = try await run(["board"], flapd: flapd)
        #expect(board.stdoutText.contains("panel main, message hello-1"))
        #expect(board.stdoutText.contains("│          HI          │"))
        let status = try await run(["status"], flapd: flapd)
        #expect(status.stdoutText.contains("panel main: simulated, 6×22, drum vestaboard, at rest, message hello-1"))
        let slots = try await run(["slots"], flapd: flapd)
        #expect(slots.stdoutText.hasPrefix("desk\tHi\tuntil "), "\(slots.stdoutText)")
        #expect(try await run(["slots", "--clear", "desk"], flapd: flapd).stdoutText == "cleared desk\n")
        #expect(try await run(["slots"], flapd: flapd).stdoutText == "no messages\n")
    }

    @Test func refusedMessagesExitTwoWithFlapdsReason() async throws {
        let flapd = try await FlapdProcess.start()
        teardown { await flapd.stop() }
        let result = try await run(["send", "--sender", "a/b", "x"], flapd: flapd)
        #expect(result.status == 2)
        #expect(result.stderrText.contains("sender.id: must be 1 to 64 characters without / + #"))
    }

    @Test func aWrongKeyAndAMissingFlapdAreSaidPlainly() async throws {
        let flapd = try await FlapdProcess.start()
        teardown { await flapd.stop() }
        let wrong = try await run(["status"], flapd: flapd, key: "nope")
        #expect(wrong.status == 1)
        #expect(wrong.stderrText.contains("flapd refused the API key from the given key: the API key is wrong"))
        let missing = try await run(["board"], flapd: nil)
        #expect(missing.status == 1)
        #expect(missing.stderrText.contains("flapd is not answering at http://127.0.0.1:9"))
    }

    @Test func theKeyIsFoundInFlapdsStateDirectory() async throws {
        let flapd = try await FlapdProcess.start(apiKey: "from-file")
        teardown { await flapd.stop() }
        try "from-file\n".write(toFile: flapd.stateDirectory + "/api-key", atomically: true, encoding: .utf8)
        var environment = ProcessInfo.processInfo.environment
        environment["FLAPD_API_KEY"] = nil
        let result = try await ProcessRunner.run(
            flapctl, ["status", "--url", "http://127.0.0.1:\(flapd.apiPort)", "--state-dir", flapd.stateDirectory], environment: environment)
        #expect(result.status == 0, "\(result.stderrText)")
    }
}

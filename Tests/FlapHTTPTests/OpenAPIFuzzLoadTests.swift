import Foundation
import TestSupport
import Testing

/// The running flapd fuzzed against its own OpenAPI description with schemathesis and all its
/// checks: every endpoint, with the key and without it, answers with a status and a body its
/// description declares, never a server error, never a hang; it takes what the description
/// allows and refuses what it refuses (the few rules a schema cannot state are named in
/// Tests/Peers/schemathesis.toml, where that one check is left out for those operations).
/// Bounded (25 examples an operation, a fixed seed); the event stream is left out (it never
/// ends, by design; `LiveBoardsTests` checks its events against the description), and so are the
/// searches for hardware and changes of settings (below).
@Suite(.cleansUp, .serialized, .timeLimit(.minutes(5))) struct OpenAPIFuzzLoadTests {
    func fuzz(_ flapd: FlapdProcess, key: String?) async throws -> ProcessRunner.Result {
        let python = try await PythonPeer.python()
        let schemathesis = URL(fileURLWithPath: python).deletingLastPathComponent().appendingPathComponent("schemathesis").path
        let configuration = PythonPeer.peersDirectory.appendingPathComponent("schemathesis.toml").path
        var arguments = [
            "--config-file", configuration,
            "run", "http://127.0.0.1:\(flapd.apiPort)/v1/openapi.json", "--max-examples", "25", "--request-timeout", "5",
            "--exclude-path", "/v1/events", "--seed", "20261123", "--no-color", "--generation-database", "none"
        ]
        // Finding hardware writes to this machine's serial ports, looks up the names it is given on
        // its network and listens for straps for seconds: not for a fuzzer on a shared machine.
        // FindMyBoardTests tries each, over a folder laid out as /dev and a flapd standing in for
        // the Vestaboard; GET /v1/hardware, which writes nothing, is fuzzed with the rest.
        for path in ["/v1/hardware/search", "/v1/hardware/vestaboard", "/v1/hardware/straps"] { arguments += ["--exclude-path", path] }
        // A change of settings that flapd takes moves its port or its key, or starts its parts
        // again, under the fuzzer's feet. SettingsFromThePageTests makes and refuses changes, and
        // the settings-change fuzz target takes any; GET /v1/settings is fuzzed with the rest.
        arguments += ["--exclude-operation-id", "changeSettings"]
        if let key { arguments += ["--header", "Authorization: Bearer \(key)"] }
        return try await ProcessRunner.run(schemathesis, arguments)
    }

    @Test func withTheKeyAndWithoutEveryAnswerIsOneTheDescriptionDeclares() async throws {
        let flapd = try await FlapdProcess.start(arguments: ["--no-sound", "--rate-limit", "0"])
        teardown { await flapd.stop() }
        for key in [flapd.apiKey, nil] {
            let result = try await fuzz(flapd, key: key)
            let summary = result.stdoutText.split(separator: "\n").filter { $0.contains("ST") || $0.contains("generated") || $0.contains("___") }
            #expect(result.status == 0, "\(key == nil ? "without" : "with") the key:\n\(summary.joined(separator: "\n"))\n\(result.stderrText)")
            #expect(result.stdoutText.contains("passed"))
        }
        #expect(!flapd.process.stderr.contains(flapd.apiKey))
    }
}

import Foundation
import Testing
import TestSupport

/// The running flapd fuzzed against its own OpenAPI description with schemathesis: every
/// endpoint, with the key and without it, answers with a status and a body its description
/// declares, never a server error, never a hang, and refuses methods it does not serve with 405.
/// Bounded (25 examples an operation, a fixed seed) so it runs in well under a minute; the
/// event stream is left out (it never ends, by design; `LiveBoardsTests` covers it).
@Suite(.serialized, .timeLimit(.minutes(5))) struct OpenAPIFuzzTests {
    static let checks = "not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance,"
        + "response_headers_conformance,unsupported_method"

    func fuzz(_ flapd: FlapdProcess, key: String?) async throws -> ProcessRunner.Result {
        let python = try await PythonPeer.python()
        let schemathesis = URL(fileURLWithPath: python).deletingLastPathComponent().appendingPathComponent("schemathesis").path
        var arguments = ["run", "http://127.0.0.1:\(flapd.apiPort)/v1/openapi.json", "--max-examples", "25", "--request-timeout", "5",
                         "--exclude-path", "/v1/events", "--seed", "20261123", "--checks", Self.checks, "--no-color", "--generation-database", "none"]
        if let key { arguments += ["--header", "Authorization: Bearer \(key)"] }
        return try await ProcessRunner.run(schemathesis, arguments)
    }

    @Test func withTheKeyAndWithoutEveryAnswerIsOneTheDescriptionDeclares() async throws {
        let flapd = try await FlapdProcess.start(arguments: ["--no-sound", "--rate-limit", "0"])
        defer { Task { await flapd.stop() } }
        for key in [flapd.apiKey, nil] {
            let result = try await fuzz(flapd, key: key)
            let summary = result.stdoutText.split(separator: "\n").filter { $0.contains("ST") || $0.contains("generated") || $0.contains("___") }
            #expect(result.status == 0, "\(key == nil ? "without" : "with") the key:\n\(summary.joined(separator: "\n"))\n\(result.stderrText)")
            #expect(result.stdoutText.contains("passed"))
        }
        #expect(!flapd.process.stderr.contains(flapd.apiKey))
    }
}

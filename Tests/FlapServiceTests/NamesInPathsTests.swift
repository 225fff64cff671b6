import Foundation
import TestSupport
import Testing

/// Names with a space, an accent, a snowman or an encoded `/` in URL paths: decoded once, so the
/// sender `my phone` is cleared at `/v1/slots/my%20phone` and the quick message `Good morning`
/// is saved, sent and deleted at `/v1/templates/Good%20morning`, by curl and by flapctl.
@Suite(.cleansUp, .timeLimit(.minutes(2))) struct NamesInPathsTests {
    /// curl's status and body for `method` on `path`.
    func curl(_ flapd: any RunningFlapd, _ method: String, _ path: String, json: String? = nil) async throws -> (status: Int, body: String) {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("curl-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        var arguments = ["-s", "-o", out, "-w", "%{http_code}", "-X", method, "-H", "Authorization: Bearer \(flapd.apiKey)"]
        if let json { arguments += ["-H", "Content-Type: application/json", "--data-binary", json] }
        let result = try await ProcessRunner.run("/usr/bin/curl", arguments + ["http://127.0.0.1:\(flapd.apiPort)\(path)"])
        return (Int(result.stdoutText) ?? 0, (try? String(contentsOfFile: out, encoding: .utf8)) ?? "")
    }

    static let names: [(name: String, encoded: String)] = [("my phone", "my%20phone"), ("café", "caf%C3%A9"), ("☃ snow", "%E2%98%83%20snow")]

    @Test func slotsAndQuickMessagesAreFoundByTheirEncodedNames() async throws {
        let flapd = try await InProcessFlapd.start(arguments: ["--no-sound", "--rate-limit", "0"])
        teardown { await flapd.stop() }
        for (index, (name, encoded)) in Self.names.enumerated() {
            #expect(try await curl(flapd, "POST", "/v1/messages", json: #"{"text": "HI \#(index)", "sender": {"id": "\#(name)"}}"#).status == 202)
            let cleared = try await curl(flapd, "DELETE", "/v1/slots/\(encoded)")
            #expect(cleared.status == 204, "\(name): \(cleared.status) \(cleared.body)")

            let saved = try await curl(flapd, "PUT", "/v1/templates/\(encoded)", json: #"{"text": "QUICK \#(index)"}"#)
            #expect(saved.status == 201, "\(name): \(saved.status) \(saved.body)")
            #expect(saved.body.contains(#""name":"\#(name)""#), "stored as \(saved.body)")
            #expect(try await curl(flapd, "POST", "/v1/templates/\(encoded)/send").status == 202)
            #expect(try await curl(flapd, "DELETE", "/v1/templates/\(encoded)").status == 204)
        }
        // An encoded / is a / in the name, which a quick message's name may not hold: said so, not 404.
        let slash = try await curl(flapd, "PUT", "/v1/templates/a%2Fb", json: #"{"text": "X"}"#)
        #expect(slash.status == 400 && slash.body.contains("/"), "\(slash.status) \(slash.body)")
        let noSender = try await curl(flapd, "DELETE", "/v1/slots/a%2Fb")
        #expect(noSender.status == 404 && noSender.body.contains("a/b"), "\(noSender.body)")
    }

    @Test func flapctlSavesSendsAndDeletesAQuickMessageWhoseNameHasASpace() async throws {
        let flapd = try await InProcessFlapd.start(arguments: ["--no-sound", "--rate-limit", "0"])
        teardown { await flapd.stop() }
        let flapctl = ProcessRunner.builtProduct("flapctl")
        for (name, _) in Self.names {
            let saved = try await ProcessRunner.run(flapctl, ["template", "save", name, "GOOD MORNING"], environment: flapd.clientEnvironment)
            #expect(saved.status == 0 && saved.stdoutText == "saved \(name)\n", "\(saved.stdoutText)\(saved.stderrText)")
            let listed = try await curl(flapd, "GET", "/v1/templates")
            #expect(listed.body.contains(#""name":"\#(name)""#), "\(listed.body)")
            let sent = try await ProcessRunner.run(flapctl, ["template", "send", name], environment: flapd.clientEnvironment)
            #expect(sent.status == 0, "\(sent.stderrText)")
            let deleted = try await ProcessRunner.run(flapctl, ["template", "delete", name], environment: flapd.clientEnvironment)
            #expect(deleted.status == 0, "\(deleted.stderrText)")
        }
        #expect(try await curl(flapd, "GET", "/v1/templates").body.contains(#""templates":[]"#))
    }
}

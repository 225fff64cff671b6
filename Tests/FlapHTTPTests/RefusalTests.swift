import Foundation
import TestSupport
import Testing

/// Bodies flapd refuses, sent with curl: each answer says what was wrong, and flapd goes on.
@Suite(.cleansUp, .serialized, .timeLimit(.minutes(2))) struct RefusalTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("refusals-\(UUID().uuidString)").path

    /// curl's status and body for `body` POSTed to `url` with `headers`.
    func post(
        _ url: String, _ body: String, headers: [String], chunked: Bool = false, method: String = "POST"
    ) async throws -> (status: Int, body: [String: Any]) {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let file = directory + "/body-\(UUID().uuidString)"
        try body.write(toFile: file, atomically: true, encoding: .utf8)
        var arguments = ["-s", "-X", method, "-o", file + ".out", "-w", "%{http_code}", "--data-binary", "@" + file]
        for header in headers + (chunked ? ["Transfer-Encoding: chunked"] : []) { arguments += ["-H", header] }
        let result = try await ProcessRunner.run("/usr/bin/curl", arguments + [url])
        let answer = (try? Data(contentsOf: URL(fileURLWithPath: file + ".out"))) ?? Data()
        return (Int(result.stdoutText) ?? 0, (try? JSONSerialization.jsonObject(with: answer) as? [String: Any]) ?? [:])
    }

    @Test func sendingAQuickMessageTakesNothingOrAnObjectWithinTheLimit() async throws {
        let flapd = try await FlapdProcess.start(arguments: ["--no-sound"])
        teardown { await flapd.stop() }
        let base = "http://127.0.0.1:\(flapd.apiPort)"
        let headers = ["Authorization: Bearer \(flapd.apiKey)", "Content-Type: application/json"]
        let saved = try await flapd.api.request(
            "PUT", "/v1/templates/lunch", body: Data(#"{"text": "LUNCH"}"#.utf8), headers: ["Content-Type": "application/json"])
        #expect(saved.status == 201)
        let huge = #"{"sender": {"id": ""# + String(repeating: "x", count: 2_000_000) + #""}}"#
        let tooLarge = try await post(base + "/v1/templates/lunch/send", huge, headers: headers)
        #expect(
            tooLarge.status == 413
                && tooLarge.body["error"] as? String == "the body is \(huge.utf8.count) bytes; a message may be at most 64 KiB (65536 bytes)")
        let garbage = try await post(base + "/v1/templates/lunch/send", "not json", headers: headers)
        #expect(garbage.status == 400, "an invalid body is refused, not ignored")
        #expect(try await post(base + "/v1/templates/lunch/send", "", headers: headers).status == 202, "nothing to add is fine")
        // A smaller limit is said as itself.
        let sound = try await post(
            base + "/v1/sound", #"{"quietHours": ""# + String(repeating: "1", count: 5000) + #""}"#, headers: headers, method: "PATCH")
        #expect(
            sound.status == 413 && (sound.body["error"] as? String)?.hasSuffix("this request's body may be at most 4096 bytes") == true, "\(sound)")
    }

    @Test func quickMessageNamesThatWouldWorkATerminalAreRefused() async throws {
        let flapd = try await FlapdProcess.start(arguments: ["--no-sound"])
        teardown { await flapd.stop() }
        // ESC[2J ESC]0;pwned BEL: clears the screen and retitles the window of whoever lists them.
        let hostile = "%1B%5B2J%1B%5D0%3Bpwned%07"
        let body = Data(#"{"text": "LUNCH"}"#.utf8), json = ["Content-Type": "application/json"]
        let saved = try await flapd.api.request("PUT", "/v1/templates/\(hostile)", body: body, headers: json)
        #expect(saved.status == 400 && saved.text.contains("control characters"), "\(saved.text)")
        let kept = try await flapd.api.request("POST", "/v1/templates/\(hostile)/from-board", body: Data(), headers: json)
        #expect(kept.status == 400 && kept.text.contains("control characters"), "\(kept.text)")
        let renamed = try await flapd.api.request("PUT", "/v1/templates/lunch", body: body, headers: json)
        #expect(renamed.status == 201)
        let to = try await flapd.api.request(
            "POST", "/v1/templates/lunch/rename", body: Data(#"{"to": "lunch\u202Etxt"}"#.utf8), headers: json)
        #expect(to.status == 400 && to.text.contains("U+202E"), "\(to.text)")
    }

    @Test func oversizedBodiesAreRefusedWithTheLimitAndTheSizeOnBothAPIs() async throws {
        let flapd = try await FlapdProcess.start()
        teardown { await flapd.stop() }
        let token = try String(contentsOfFile: flapd.stateDirectory + "/local-api-enablement-token", encoding: .utf8).trimmingCharacters(
            in: .whitespacesAndNewlines)
        let enabled = try await post(flapd.localAPIBase + "/local-api/enablement", "", headers: ["X-Vestaboard-Local-Api-Enablement-Token: \(token)"])
        let localKey = try #require(enabled.body["apiKey"] as? String)
        let native = (
            "http://127.0.0.1:\(flapd.apiPort)/v1/messages", ["Authorization: Bearer \(flapd.apiKey)", "Content-Type: application/json"], "error"
        )
        let local = (flapd.localAPIBase + "/local-api/message", ["X-Vestaboard-Local-Api-Key: \(localKey)"], "message")

        let bodies = [
            #"{"text": ""# + String(repeating: "A", count: 2_000_000) + #""}"#,
            String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000),
            #"{"id": ""# + String(repeating: "i", count: 100_000) + #"", "text": "HI"}"#
        ]
        for (url, headers, field) in [native, local] {
            for body in bodies {
                let reply = try await post(url, body, headers: headers)
                #expect(reply.status == 413)
                #expect(reply.body[field] as? String == "the body is \(body.utf8.count) bytes; a message may be at most 64 KiB (65536 bytes)")
            }
            // Sent in chunks, with no length announced: the limit is still said.
            let chunked = try await post(url, bodies[0], headers: headers, chunked: true)
            #expect(chunked.status == 413)
            #expect((chunked.body[field] as? String)?.hasSuffix("a message may be at most 64 KiB (65536 bytes)") == true)
        }
        // Within the limit, deep nesting and a long id are explained, not crashed on.
        let nested = try await post(native.0, String(repeating: "[", count: 30_000) + String(repeating: "]", count: 30_000), headers: native.1)
        #expect(nested.status == 400 && nested.body["error"] as? String == "the body is not valid JSON")
        let longID = try await post(native.0, #"{"id": ""# + String(repeating: "i", count: 1000) + #"", "text": "HI"}"#, headers: native.1)
        #expect(longID.status == 400 && (longID.body["error"] as? String)?.contains("id: must be 1 to 128 characters") == true)
        #expect(try await flapd.api.get("/healthz").status == 200)
    }
}

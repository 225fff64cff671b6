import Foundation
import TestSupport
import Testing

/// docs/phones.md's Shortcuts recipe, its request run as written (only the board's name, key and
/// text filled in) over HTTPS against a real flapd: the message is taken as the member's own.
@Suite(.cleansUp, .timeLimit(.minutes(3))) struct ShareRecipeTests {
    /// The sh block under "What the shortcut sends".
    static func recipe() throws -> String {
        let text = try String(contentsOf: PythonPeer.packageRoot.appendingPathComponent("docs/phones.md"), encoding: .utf8)
        let after = try #require(text.components(separatedBy: "What the shortcut sends").dropFirst().first)
        let block = try #require(after.components(separatedBy: "```sh\n").dropFirst().first?.components(separatedBy: "```").first)
        return block
    }

    @Test func theShortcutsRequestSendsAsTheMemberThemselves() async throws {
        let flapd = try await InProcessFlapd.start(arguments: ["--no-sound"])
        teardown { await flapd.stop() }
        let added = try await flapd.api.post("/v1/members", json: ["name": "Mum"])
        let id = try #require((added.object["member"] as? [String: Any])?["id"] as? String)
        let key = try #require(try await flapd.api.post("/v1/members/\(id)/keys", json: [:]).object["key"] as? String)

        let recipe = try Self.recipe()
        #expect(recipe.contains("https://board.local:8443/v1/messages") && recipe.contains("YOUR-KEY") && recipe.contains("SHARED TEXT"))
        let command = recipe.replacingOccurrences(of: "flapd-ca.crt", with: flapd.stateDirectory + "/tls/ca.crt")
            .replacingOccurrences(of: "board.local:8443", with: "localhost:\(flapd.httpsPort)")
            .replacingOccurrences(of: "YOUR-KEY", with: key)
            .replacingOccurrences(of: "SHARED TEXT", with: "Look at this https://example.com/r")
        let result = try await ProcessRunner.run(
            "/bin/sh", ["-c", command.trimmingCharacters(in: .whitespacesAndNewlines) + " --silent --show-error --write-out '\\n%{http_code}'"])
        #expect(result.status == 0, "\(result.stderrText)")
        let lines = result.stdoutText.split(separator: "\n")
        #expect(lines.last == "202", "\(result.stdoutText)")
        let answer = try #require(try JSONSerialization.jsonObject(with: Data((lines.first ?? "").utf8)) as? [String: Any])
        let messageID = try #require(answer["id"] as? String)
        let receipt = try await flapd.api.get("/v1/receipts/\(messageID)").object
        #expect(receipt["sender"] as? String == "mum", "\(receipt)")
        let shown = try await eventually {
            let board = try await flapd.api.get("/v1/board").text
            return board.contains("LOOK AT THIS")
        }
        #expect(shown)
    }
}

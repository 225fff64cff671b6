import FlapCore
import FlapDisplay
import Foundation
import TestSupport
import Testing

@testable import FlapService

/// A board no one owns yet, as a fresh install starts it (no key configured): claimed from a
/// phone with the code it shows, which no answer ever carries; then it shows none, and its owner
/// can show a new one to hand it over.
@Suite(.cleansUp, .timeLimit(.minutes(2))) struct SetupFromThePhoneTests {
    func code(in state: String) throws -> String {
        try String(contentsOfFile: state + "/setup-code", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `code` with its last digit moved on by one.
    func wrong(_ code: String) -> String {
        let last = code.last?.wholeNumberValue ?? 0
        return String(code.dropLast()) + "\((last + 1) % 10)"
    }

    /// What the first panel's modules show, as text: the panel itself, not what the API says.
    func panelText(_ flapd: InProcessFlapd) async -> String {
        await flapd.appliance.panels[0].motion.restingBoard().lines.joined(separator: "\n")
    }

    @Test func aFreshBoardIsClaimedWithTheCodeItShowsAndThenShowsNone() async throws {
        let flapd = try await InProcessFlapd.start(apiKey: nil, arguments: ["--no-sound"])
        teardown { await flapd.stop() }
        let phone = HTTPClient(base: "http://127.0.0.1:\(flapd.apiPort)")
        let state = try await phone.get("/v1/setup")
        #expect(state.status == 200 && state.object["claimed"] as? Bool == false && state.object["codeDigits"] as? Int == 8, "\(state.text)")
        let shown = try code(in: flapd.stateDirectory)
        #expect(shown.count == 9 && flapd.said.contains("code=\(shown)"), "in the journal too")
        // On the panel, and not in what the API says of it.
        #expect(try await eventually { await panelText(flapd).contains(shown) })

        let wrong = try await phone.post("/v1/setup/claim", json: ["code": wrong(shown)])
        #expect(wrong.status == 401 && wrong.error.contains("4 more tries"), "\(wrong.text)")
        #expect(try await phone.post("/v1/setup/claim", json: ["code": "12"]).status == 400)
        #expect(try await phone.post("/v1/setup/claim", json: ["nothing": true]).status == 400)
        // No answer carries the code: not the setup state, the metrics, the board or its picture
        // (read with the viewer key: the API key would claim the board, as its holder owns it).
        let viewerKey = try String(contentsOfFile: flapd.stateDirectory + "/viewer-key", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let viewer = HTTPClient(base: phone.base, headers: ["Authorization": "Bearer \(viewerKey)"])
        for path in ["/v1/setup", "/metrics", "/v1/board", "/v1/board.svg"] {
            let answer = try await viewer.get(path).text
            #expect(!answer.contains(shown) && !answer.contains(shown.replacingOccurrences(of: " ", with: "")), "\(path)")
        }

        let claimed = try await phone.post("/v1/setup/claim", json: ["code": shown])
        #expect(claimed.status == 200 && claimed.object["role"] as? String == "owner", "\(claimed.text)")
        let cookie = try #require(claimed.headers["set-cookie"]?.split(separator: ";").first.map(String.init))
        let owner = HTTPClient(base: phone.base, headers: ["Cookie": cookie, "Origin": phone.base])
        #expect(try await owner.get("/v1/session").object["role"] as? String == "owner")
        #expect(try await owner.post("/v1/messages", json: ["text": "HELLO FROM MY PHONE"]).status == 202)
        #expect(try await flapd.api.get("/v1/status").status == 200)
        #expect(try await eventually { await panelText(flapd).contains("HELLO FROM MY PHONE") })
        #expect(try await phone.get("/v1/setup").object["claimed"] as? Bool == true)
        let again = try await phone.post("/v1/setup/claim", json: ["code": shown])
        #expect(again.status == 403 && again.error.contains("has an owner"), "\(again.text)")
        #expect(!FileManager.default.fileExists(atPath: flapd.stateDirectory + "/setup-code"), "no code left behind")

        // Handing it over: the owner asks for a new code; whoever types it is the owner, and may
        // sign the earlier owner's phones out.
        #expect(try await phone.post("/v1/setup/code", json: [:]).status == 401, "not for anyone")
        let handed = try await owner.post("/v1/setup/code", json: [:])
        let newCode = try code(in: flapd.stateDirectory)
        #expect(handed.status == 202 && !handed.text.contains(newCode), "\(handed.text)")
        let next = try await phone.post("/v1/setup/claim", json: ["code": newCode, "endOtherOwnerSessions": true])
        #expect(next.status == 200, "\(next.text)")
        #expect(try await owner.get("/v1/session").object["signedIn"] as? Bool == false, "the earlier owner's phone is signed out")
    }

    /// On the network from the start, a board no one owns answers only what setting it up needs;
    /// a key opens what it opens on any board; once claimed, everything answers as before.
    @Test func untilClaimedOnlyTheSetupAnswers() async throws {
        let flapd = try await InProcessFlapd.start(apiKey: nil, arguments: ["--no-sound"])
        teardown { await flapd.stop() }
        let phone = HTTPClient(base: "http://127.0.0.1:\(flapd.apiPort)")
        for path in ["/", "/web/app.js", "/web/endpoints.js", "/healthz", "/install", "/ca.crt", "/v1/setup", "/v1/session", "/manifest.webmanifest"]
        {
            #expect(try await phone.get(path).status == 200, "\(path)")
        }
        for path in ["/v1/board", "/v1/board.png", "/metrics", "/v1/openapi.json", "/v1/status", "/v1/slots"] {
            let refused = try await phone.get(path)
            #expect(refused.status == 403 && refused.error.contains("not set up yet"), "\(path): \(refused.text)")
        }
        let tv = try await phone.get("/tv")
        #expect(tv.text.contains("Set up this board"), "a page leads to the setup page (the client follows the redirect)")
        #expect(try await phone.post("/v1/messages", json: ["text": "SNEAKY"]).status == 403)
        #expect(try await HTTPClient(base: phone.base, headers: ["Authorization": "Bearer not-the-key"]).get("/metrics").status == 403)

        let viewerKey = try String(contentsOfFile: flapd.stateDirectory + "/viewer-key", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let viewer = HTTPClient(base: phone.base, headers: ["Authorization": "Bearer \(viewerKey)"])
        #expect(try await viewer.get("/v1/board").status == 200, "the viewer key reads the (blank) board")
        #expect(try await phone.get("/v1/setup").object["claimed"] as? Bool == false, "and claims nothing")

        let claimed = try await phone.post("/v1/setup/claim", json: ["code": try code(in: flapd.stateDirectory)])
        #expect(claimed.status == 200)
        for path in ["/metrics", "/v1/openapi.json", "/tv"] { #expect(try await phone.get(path).status == 200, "\(path)") }
        #expect(try await phone.get("/v1/board").status == 401, "the board is its household's now")
    }

    @Test func fiveWrongCodesBringANewOneAndARestartKeepsTheBoardUnclaimed() async throws {
        let first = try await InProcessFlapd.start(apiKey: nil, arguments: ["--no-sound"])
        let phone = HTTPClient(base: "http://127.0.0.1:\(first.apiPort)")
        let shown = try code(in: first.stateDirectory)
        for _ in 0..<5 { _ = try await phone.post("/v1/setup/claim", json: ["code": wrong(shown)]) }
        let replaced = try code(in: first.stateDirectory)
        #expect(replaced != shown)
        await first.stop()
        let second = try await InProcessFlapd.start(stateDirectory: first.stateDirectory, apiKey: nil, arguments: ["--no-sound"])
        teardown { await second.stop() }
        let afterRestart = HTTPClient(base: "http://127.0.0.1:\(second.apiPort)")
        #expect(try await afterRestart.get("/v1/setup").object["claimed"] as? Bool == false)
        let current = try code(in: second.stateDirectory)
        #expect(try await afterRestart.post("/v1/setup/claim", json: ["code": current]).status == 200)
    }

    /// Whoever holds the API key owns the board: `flapctl send` on it, or a script with the key,
    /// claims it, and the message is shown.
    @Test func aMessageSentWithTheKeyClaimsTheBoard() async throws {
        let flapd = try await InProcessFlapd.start(apiKey: nil, arguments: ["--no-sound"])
        teardown { await flapd.stop() }
        #expect(try await eventually { await panelText(flapd).contains(try code(in: flapd.stateDirectory)) })
        #expect(try await flapd.api.post("/v1/messages", json: ["text": "FROM THE SHELL"]).status == 202)
        #expect(try await eventually { await panelText(flapd).contains("FROM THE SHELL") })
        #expect(try await HTTPClient(base: "http://127.0.0.1:\(flapd.apiPort)").get("/v1/setup").object["claimed"] as? Bool == true)
    }

    @Test func flapctlPrintsTheCodeAndShowsANewOne() async throws {
        let flapd = try await InProcessFlapd.start(apiKey: nil, arguments: ["--no-sound"])
        teardown { await flapd.stop() }
        let flapctl = ProcessRunner.builtProduct("flapctl")
        let printed = try await ProcessRunner.run(flapctl, ["setup-code", "--state-dir", flapd.stateDirectory])
        let shown = try code(in: flapd.stateDirectory)
        #expect(printed.status == 0 && printed.stdoutText.hasPrefix(shown + "\n"), "\(printed.stdoutText)\(printed.stderrText)")
        // Claimed by signing in with the key (as `flapctl pair` does for a phone): no code any more.
        #expect(try await HTTPClient(base: "http://127.0.0.1:\(flapd.apiPort)").post("/v1/session", json: ["key": flapd.apiKey]).status == 200)
        let none = try await ProcessRunner.run(flapctl, ["setup-code", "--state-dir", flapd.stateDirectory])
        #expect(none.status == 0 && none.stdoutText.contains("shows no code"), "\(none.stdoutText)\(none.stderrText)")
        let new = try await ProcessRunner.run(
            flapctl, ["setup-code", "--new", "--state-dir", flapd.stateDirectory, "--url", "http://127.0.0.1:\(flapd.apiPort)"])
        let handed = try code(in: flapd.stateDirectory)
        #expect(new.status == 0 && new.stdoutText.hasPrefix(handed + "\n"), "\(new.stdoutText)\(new.stderrText)")
        #expect(try await HTTPClient(base: "http://127.0.0.1:\(flapd.apiPort)").get("/v1/setup").object["claimed"] as? Bool == false)
    }
}

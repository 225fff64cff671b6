import Foundation
import TestSupport
import Testing

/// `flapctl pair` and `flapctl invite` against a real flapd: the QR code they print, read back by
/// Debian's zbarimg, is the link they print, and that link signs a browser in once, as the owner
/// or as the member.
@Suite(.cleansUp, .timeLimit(.minutes(2))) struct PairingCommandTests {
    /// The link a command printed after "Or open ", and what zbarimg reads in its QR code.
    static func linkAndCode(_ output: String) async throws -> (printed: String, scanned: String) {
        let printed = try #require(output.split(separator: "\n").first { $0.hasPrefix("Or open ") }.map { String($0.dropFirst(8)) })
        let read = try await ProcessRunner.run(
            try await PythonPeer.python(), [PythonPeer.peersDirectory.appendingPathComponent("qr_read.py").path],
            input: Data(output.utf8))
        #expect(read.status == 0, "\(read.stderrText)")
        return (printed, read.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    func redeem(_ link: String, at flapd: any RunningFlapd) async throws -> [String: Any] {
        let token = String(link.split(separator: "#").last ?? "")
        let reply = try await HTTPClient(base: "http://127.0.0.1:\(flapd.apiPort)").post("/v1/session", json: ["invitation": token])
        #expect(reply.status == 200, "\(reply.text)")
        return reply.object
    }

    @Test func pairPrintsAScannableLinkThatSignsTheOwnerInOnce() async throws {
        let flapd = try await InProcessFlapd.start(arguments: ["--no-sound"])
        teardown { await flapd.stop() }
        let paired = try await ProcessRunner.run(ProcessRunner.builtProduct("flapctl"), ["pair"], environment: flapd.clientEnvironment)
        #expect(paired.status == 0, "\(paired.stderrText)")
        let (printed, scanned) = try await Self.linkAndCode(paired.stdoutText)
        #expect(scanned == printed && printed.contains(":\(flapd.httpsPort)/join#"), "\(paired.stdoutText)")
        #expect(paired.stdoutText.contains("for the next 10 minutes") && paired.stdoutText.contains(":\(flapd.apiPort)/install"))
        #expect(try await redeem(printed, at: flapd)["role"] as? String == "owner")
        let again = try await HTTPClient(base: "http://127.0.0.1:\(flapd.apiPort)").post(
            "/v1/session", json: ["invitation": String(printed.split(separator: "#").last ?? "")])
        #expect(again.status == 401)
    }

    /// Links name the board as the household reaches it, the same from flapctl and from the page:
    /// the first of `[api] tls_names`, else the name the browser used, else HOSTNAME.local; a
    /// name the certificate lacks is refused; each link lists the other names that work.
    @Test func linksUseTheHouseholdsNameFromFlapctlAndThePageAlike() async throws {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("names-\(UUID().uuidString).toml")
        try "[api]\ntls_names = [\"board.home\"]\n".write(to: config, atomically: true, encoding: .utf8)
        let named = try await InProcessFlapd.start(arguments: ["--no-sound", "--config", config.path])
        teardown { await named.stop() }
        let flapctl = ProcessRunner.builtProduct("flapctl")
        var quiet = named.clientEnvironment
        quiet["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=/nonexistent/system_bus_socket"  // no system bus: nothing about it printed
        let paired = try await ProcessRunner.run(flapctl, ["pair"], environment: quiet)
        #expect(paired.status == 0 && paired.stderrText.isEmpty, "\(paired.stderrText)")
        let (printed, scanned) = try await Self.linkAndCode(paired.stdoutText)
        #expect(scanned == printed && printed.hasPrefix("https://board.home:\(named.httpsPort)/join#"), "\(paired.stdoutText)")
        let host = ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? ""
        #expect(
            paired.stdoutText.contains("If board.home does not open on the phone, the board also answers to")
                && paired.stdoutText.contains("\(host).local"))
        #expect(paired.stdoutText.hasSuffix("certificate first: http://board.home:\(named.apiPort)/install says how.\n"), "\(paired.stdoutText)")
        // The page, opened under another name, gets the same origin.
        let fromPage = try await named.api.request("POST", "/v1/pairing", headers: ["Host": "192.0.2.80:\(named.apiPort)"])
        #expect((fromPage.object["url"] as? String)?.hasPrefix("https://board.home:") == true, "\(fromPage.text)")
        #expect((fromPage.object["worksUnder"] as? [String])?.first == "board.home")
        // Chosen: a name on the certificate, or refused saying which are.
        let chosen = try await ProcessRunner.run(flapctl, ["invite", "Mum", "--host", "\(host).local"], environment: quiet)
        #expect(
            chosen.status == 0 && chosen.stdoutText.contains("Or open https://\(host).local:\(named.httpsPort)/join#"),
            "\(chosen.stdoutText)\(chosen.stderrText)")
        let wrong = try await ProcessRunner.run(flapctl, ["pair", "--host", "nowhere.example"], environment: quiet)
        #expect(
            wrong.status == 2 && wrong.stderrText.contains("nowhere.example is not a name the board's certificate has")
                && wrong.stderrText.contains("[api] tls_names") && !wrong.stderrText.contains("Usage"), "\(wrong.stderrText)")
        let members = try await named.api.get("/v1/members").object["members"] as? [[String: Any]] ?? []
        #expect(members.map { $0["name"] as? String } == ["Mum"], "the refused pairing made nothing; Mum was invited once")

        // No tls_names: the browser's name when the certificate has it, never one it does not
        // (a Host anyone can write), and from this machine its .local name.
        let plain = try await InProcessFlapd.start(arguments: ["--no-sound"])
        teardown { await plain.stop() }
        let browser = try await plain.api.request("POST", "/v1/pairing", headers: ["Host": "\(host):\(plain.apiPort)"])
        #expect((browser.object["url"] as? String)?.hasPrefix("https://\(host.lowercased()):\(plain.httpsPort)/join#") == true, "\(browser.text)")
        let stranger = try await plain.api.request("POST", "/v1/pairing", headers: ["Host": "pi.lan:\(plain.apiPort)"])
        #expect((stranger.object["url"] as? String)?.hasPrefix("https://\(host).local:\(plain.httpsPort)/join#") == true, "\(stranger.text)")
        let local = try await plain.api.request("POST", "/v1/pairing")
        #expect((local.object["url"] as? String)?.hasPrefix("https://\(host).local:") == true, "\(local.text)")
    }

    @Test func invitePrintsTheMembersLinkAndRefusesASenderTaken() async throws {
        let flapd = try await InProcessFlapd.start(arguments: ["--no-sound"])
        teardown { await flapd.stop() }
        let flapctl = ProcessRunner.builtProduct("flapctl")
        let invited = try await ProcessRunner.run(flapctl, ["invite", "Grand Ma"], environment: flapd.clientEnvironment)
        #expect(invited.status == 0, "\(invited.stderrText)")
        #expect(invited.stdoutText.hasPrefix("Grand Ma sends as grand-ma."))
        let (printed, scanned) = try await Self.linkAndCode(invited.stdoutText)
        #expect(scanned == printed)
        let session = try await redeem(printed, at: flapd)
        #expect(session["role"] as? String == "member" && (session["member"] as? [String: Any])?["sender"] as? String == "grand-ma")

        let taken = try await ProcessRunner.run(flapctl, ["invite", "Nan", "--sender", "grand-ma"], environment: flapd.clientEnvironment)
        #expect(taken.status == 2 && taken.stderrText.contains("grand-ma is already Grand Ma's"), "\(taken.stderrText)")
    }

    /// Twenty wrong invitations from anyone made every real one answer 429 for ten minutes: a
    /// stranger's guesses (from 127.0.0.2) now slow only the stranger, and Mum's phone (from
    /// 127.0.0.1) still signs in with her link.
    @Test func aStrangersWrongLinksDoNotStopTheHouseholdsInvitations() async throws {
        let flapd = try await InProcessFlapd.start(arguments: ["--no-sound"])
        teardown { await flapd.stop() }
        let invited = try await ProcessRunner.run(ProcessRunner.builtProduct("flapctl"), ["invite", "Mum"], environment: flapd.clientEnvironment)
        #expect(invited.status == 0, "\(invited.stderrText)")
        let (printed, _) = try await Self.linkAndCode(invited.stdoutText)
        func guess(_ token: String) async throws -> String {
            try await ProcessRunner.run(
                "/usr/bin/curl",
                [
                    "-s", "-o", "/dev/null", "-w", "%{http_code}", "--interface", "127.0.0.2",
                    "-H", "Content-Type: application/json", "--data-binary", #"{"invitation": "\#(token)"}"#,
                    "http://127.0.0.1:\(flapd.apiPort)/v1/session"
                ]
            ).stdoutText
        }
        for _ in 0..<20 { #expect(try await guess(String(repeating: "A", count: 43)) == "401") }
        #expect(try await guess(String(repeating: "B", count: 43)) == "429")
        #expect(try await redeem(printed, at: flapd)["role"] as? String == "member")
    }
}

import Foundation
import Testing
import TestSupport

/// `flapctl pair` and `flapctl invite` against a real flapd: the QR code they print, read back by
/// Debian's zbarimg, is the link they print, and that link signs a browser in once, as the owner
/// or as the member.
@Suite(.cleansUp, .timeLimit(.minutes(2))) struct PairingCommandTests {
    /// The link a command printed after "Or open ", and what zbarimg reads in its QR code.
    static func linkAndCode(_ output: String) async throws -> (printed: String, scanned: String) {
        let printed = try #require(output.split(separator: "\n").first { $0.hasPrefix("Or open ") }.map { String($0.dropFirst(8)) })
        let read = try await ProcessRunner.run(try await PythonPeer.python(), [PythonPeer.peersDirectory.appendingPathComponent("qr_read.py").path],
                                               input: Data(output.utf8))
        #expect(read.status == 0, "\(read.stderrText)")
        return (printed, read.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    func redeem(_ link: String, at flapd: FlapdProcess) async throws -> [String: Any] {
        let token = String(link.split(separator: "#").last ?? "")
        let reply = try await HTTPClient(base: "http://127.0.0.1:\(flapd.apiPort)").post("/v1/session", json: ["invitation": token])
        #expect(reply.status == 200, "\(reply.text)")
        return reply.object
    }

    @Test func pairPrintsAScannableLinkThatSignsTheOwnerInOnce() async throws {
        let flapd = try await FlapdProcess.start(arguments: ["--no-sound"])
        teardown { await flapd.stop() }
        let paired = try await ProcessRunner.run(ProcessRunner.builtProduct("flapctl"), ["pair"], environment: flapd.clientEnvironment)
        #expect(paired.status == 0, "\(paired.stderrText)")
        let (printed, scanned) = try await Self.linkAndCode(paired.stdoutText)
        #expect(scanned == printed && printed.contains(":\(flapd.httpsPort)/join#"), "\(paired.stdoutText)")
        #expect(paired.stdoutText.contains("for the next 10 minutes") && paired.stdoutText.contains(":\(flapd.apiPort)/install"))
        #expect(try await redeem(printed, at: flapd)["role"] as? String == "owner")
        let again = try await HTTPClient(base: "http://127.0.0.1:\(flapd.apiPort)").post("/v1/session", json: ["invitation": String(printed.split(separator: "#").last ?? "")])
        #expect(again.status == 401)
    }

    @Test func invitePrintsTheMembersLinkAndRefusesASenderTaken() async throws {
        let flapd = try await FlapdProcess.start(arguments: ["--no-sound"])
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
        let flapd = try await FlapdProcess.start(arguments: ["--no-sound"])
        teardown { await flapd.stop() }
        let invited = try await ProcessRunner.run(ProcessRunner.builtProduct("flapctl"), ["invite", "Mum"], environment: flapd.clientEnvironment)
        #expect(invited.status == 0, "\(invited.stderrText)")
        let (printed, _) = try await Self.linkAndCode(invited.stdoutText)
        func guess(_ token: String) async throws -> String {
            try await ProcessRunner.run("/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "--interface", "127.0.0.2",
                                                         "-H", "Content-Type: application/json", "--data-binary", #"{"invitation": "\#(token)"}"#,
                                                         "http://127.0.0.1:\(flapd.apiPort)/v1/session"]).stdoutText
        }
        for _ in 0..<20 { #expect(try await guess(String(repeating: "A", count: 43)) == "401") }
        #expect(try await guess(String(repeating: "B", count: 43)) == "429")
        #expect(try await redeem(printed, at: flapd)["role"] as? String == "member")
    }
}

import Foundation
import Testing
import TestSupport

/// flapd's page in a real headless Chromium: sign in, a wrong key refused, compose with the
/// preview, send, the board's cells reach the text in two browsers, a quick message saved and
/// sent, a slot cleared, axe-core finds no serious
/// violation, no console error.
@Suite(.timeLimit(.minutes(2))) struct WebPageBrowserTests {
    @Test func composeSendAndWatchTheBoardFlipInTwoBrowsers() async throws {
        let flapd = try await FlapdProcess.start(arguments: ["--no-sound"])
        defer { Task { await flapd.stop() } }
        let artifacts = PythonPeer.packageRoot.appendingPathComponent(".build/test-artifacts")
        try FileManager.default.createDirectory(at: artifacts, withIntermediateDirectories: true)
        let screenshot = artifacts.appendingPathComponent("web-page.png").path
        let result = try await ProcessRunner.run(try await PythonPeer.python(), [
            PythonPeer.peersDirectory.appendingPathComponent("browser_page_check.py").path,
            "http://127.0.0.1:\(flapd.apiPort)", flapd.apiKey, screenshot,
        ])
        #expect(result.status == 0, "\(result.stderrText)")
        let seen = try #require(try JSONSerialization.jsonObject(with: Data(result.stdoutText.utf8)) as? [String: Any])
        #expect(seen["wrongKeyRefused"] as? Bool == true)
        #expect(seen["keyLabel"] as? String == "API key")
        #expect(seen["signedIn"] as? Bool == true && seen["boardCells"] as? Int == 132)
        #expect(seen["previewShown"] as? Bool == true)
        #expect(seen["firstSawIt"] as? Bool == true && seen["secondSawIt"] as? Bool == true)
        #expect(seen["receiptDisplayed"] as? Bool == true, "\(seen["receipt"] ?? "")")
        #expect((seen["boardLabel"] as? String)?.contains("HELLO FROM CHROMIUM") == true, "\(seen["boardLabel"] ?? "")")
        #expect(seen["templateListed"] as? Bool == true && seen["templateShown"] as? Bool == true, "a quick message saved and sent")
        #expect(seen["slotsListed"] as? Bool == true && seen["slotCleared"] as? Bool == true, "a slot cleared, the board back to the other")
        #expect((seen["consoleErrors"] as? [String])?.isEmpty == true, "\(seen["consoleErrors"] ?? "")")
        // axe-core in the page: no serious or critical accessibility violation, signed out or in.
        #expect((seen["axeSignIn"] as? [Any])?.isEmpty == true, "\(seen["axeSignIn"] ?? "")")
        #expect((seen["axeApp"] as? [Any])?.isEmpty == true, "\(seen["axeApp"] ?? "")")
        #expect(!(seen["pageSource"] as? String ?? "").contains(flapd.apiKey))
        #expect(!(flapd.process.stderr + flapd.process.stdout).contains(flapd.apiKey))
        #expect(FileManager.default.fileExists(atPath: screenshot))
    }
}

import Foundation
import Testing
import TestSupport

/// The page as an app on a phone, in a real headless Chromium: installable with no error, the
/// widget views at 360×800 (live, axe-core clean, a tap opens the app), and offline: flapd
/// stopped, the app reloaded shows the last board and the offline badge; flapd started again, the
/// page shows the new board by itself.
@Suite(.serialized, .timeLimit(.minutes(3))) struct InstalledAppBrowserTests {
    @Test func theAppInstallsShowsWidgetsAndKeepsTheLastBoardOffline() async throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("app-\(UUID().uuidString)").path
        let shots = PythonPeer.packageRoot.appendingPathComponent(".build/test-artifacts").path
        try FileManager.default.createDirectory(atPath: shots, withIntermediateDirectories: true)
        let result = try await ProcessRunner.run(try await PythonPeer.python(), [
            PythonPeer.peersDirectory.appendingPathComponent("browser_app_check.py").path,
            ProcessRunner.builtProduct("flapd"), state, "app-test-key", shots,
        ])
        #expect(result.status == 0, "\(result.stderrText.suffix(3000))")
        let seen = try #require(try JSONSerialization.jsonObject(with: Data(result.stdoutText.utf8)) as? [String: Any])
        #expect(seen["placeholder"] as? Bool == true && seen["placeholderLink"] as? String == "Sign in", "a widget before signing in")
        #expect(seen["signedIn"] as? Bool == true && seen["workerReady"] as? Bool == true)
        #expect(seen["installable"] as? Bool == true, "\(seen["installabilityErrors"] ?? "")")
        #expect((seen["manifestErrors"] as? [Any])?.isEmpty == true && seen["manifestName"] as? String == "VestaWidget")
        let widgets = seen["widgets"] as? [String: [String: Any]] ?? [:]
        for size in ["small", "medium", "large"] {
            let widget = widgets[size] ?? [:]
            #expect(widget["drawn"] as? Bool == true && widget["live"] as? Bool == true, "\(size): \(widget)")
            #expect(widget["opensApp"] as? Bool == true && widget["width"] as? Int == 360, "\(size): no sideways scrolling at 360 px")
            #expect((widget["axe"] as? [Any])?.isEmpty == true, "\(size): \(widget["axe"] ?? "")")
            #expect(FileManager.default.fileExists(atPath: shots + "/widget-\(size).png"))
        }
        let recent = widgets["large"]?["recentText"] as? String ?? ""
        // "Good morning" as the board shows it, not with its small letters as blocks.
        #expect(recent.contains("kitchen") && recent.contains("GOOD MORNING") && recent.contains("h left") && !recent.contains("■"), "\(recent)")
        let small = widgets["small"] ?? [:]
        #expect(small["paintingTiles"] as? Bool == true && small["paintingWidth"] as? Int == 360, "a painting in the small widget: \(small)")
        #expect(seen["offlineBoard"] as? Bool == true && seen["offlineBadge"] as? Bool == true, "in \(seen["offlineFirstBoardMs"] ?? "?") ms")
        #expect((seen["offlineText"] as? String)?.hasPrefix("Offline: the board as seen at ") == true, "\(seen["offlineText"] ?? "")")
        #expect(seen["widgetOffline"] as? Bool == true)
        #expect(seen["caughtUp"] as? Bool == true && seen["badgeGone"] as? Bool == true, "flapd back: the new board, no badge")
        #expect((seen["consoleErrors"] as? [String])?.isEmpty == true, "\(seen["consoleErrors"] ?? "")")
    }
}

import Foundation
import TestSupport
import Testing

/// The page as an app on a phone, in a real headless Chromium: installable with no error, the
/// widget views at 360×800 (live, axe-core clean, a tap opens the app), and offline: flapd
/// stopped, the app reloaded shows the last board and the offline badge; flapd started again, the
/// page shows the new board by itself.
@Suite(.serialized, .timeLimit(.minutes(10))) struct InstalledAppBrowserTests {
    @Test func theAppInstallsShowsWidgetsAndKeepsTheLastBoardOffline() async throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("app-\(UUID().uuidString)").path
        let shots = PythonPeer.packageRoot.appendingPathComponent(".build/test-artifacts").path
        try FileManager.default.createDirectory(atPath: shots, withIntermediateDirectories: true)
        let result = try await ProcessRunner.run(
            try await PythonPeer.python(),
            [
                PythonPeer.peersDirectory.appendingPathComponent("browser_app_check.py").path,
                ProcessRunner.builtProduct("flapd"), state, "app-test-key", shots
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

/// The page on a phone, as a household uses it: sizes for fingers, plain words, undo, and a
/// message written offline sent once when flapd is back. Screenshots in .build/test-artifacts.
@Suite(.serialized, .timeLimit(.minutes(10))) struct PhonePageBrowserTests {
    @Test func thePageFitsAPhoneAndKeepsWhatIsWrittenOffline() async throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("phone-\(UUID().uuidString)").path
        let shots = PythonPeer.packageRoot.appendingPathComponent(".build/test-artifacts").path
        try FileManager.default.createDirectory(atPath: shots, withIntermediateDirectories: true)
        let result = try await ProcessRunner.run(
            try await PythonPeer.python(),
            [
                PythonPeer.peersDirectory.appendingPathComponent("browser_phone_check.py").path,
                ProcessRunner.builtProduct("flapd"), state, "phone-test-key", shots
            ])
        #expect(result.status == 0, "\(result.stderrText.suffix(3000))")
        let seen = try #require(try JSONSerialization.jsonObject(with: Data(result.stdoutText.utf8)) as? [String: Any])
        #expect(seen["boardShown"] as? Bool == true)
        #expect(seen["pageWidth"] as? Int == 390 && seen["pageWidthAfter"] as? Int == 390, "nothing scrolls sideways at 390 px")
        for target in ["paintCell", "paletteChip", "colourChip"] {
            #expect((seen[target] as? Double ?? 0) >= 44, "\(target): \(seen[target] ?? "?") px")
        }
        let swatches = seen["swatches"] as? [String: String] ?? [:]
        #expect(Set(swatches.values).count == 4, "white, filled, black and blank look different: \(swatches)")
        #expect((seen["count"] as? String)?.hasPrefix("11/132 · about ") == true, "\(seen["count"] ?? "")")
        #expect(seen["undoOffered"] as? Bool == true && seen["hallClearedLater"] as? Bool == true && seen["mumKept"] as? Bool == true)
        let status = seen["status"] as? String ?? ""
        #expect(status.contains("The clock is right") || status.contains("Waiting for the correct time"), "\(status)")
        #expect(!status.contains("trusted:") && !status.contains("aplay"), "jargon before Details: \(status)")
        #expect((seen["axe"] as? [Any])?.isEmpty == true, "\(seen["axe"] ?? "")")
        #expect(
            (seen["smallTargets"] as? [String])?.isEmpty == true && (seen["controlsMeasured"] as? Int ?? 0) > 40,
            "controls under 44×44 px at 390 px wide: \(seen["smallTargets"] ?? "?")")
        #expect(
            (seen["waitingNote"] as? String)?.contains("WRITTEN OFFLINE") == true && seen["waitingListed"] as? Bool == true,
            "\(seen["waitingNote"] ?? "")")
        #expect(seen["sentWhenBack"] as? Bool == true && seen["outboxEmptied"] as? Bool == true)
        #expect((seen["offlineSends"] as? [String])?.count == 1, "sent once: \(seen["offlineSends"] ?? "")")
        #expect((seen["consoleErrors"] as? [String])?.isEmpty == true, "\(seen["consoleErrors"] ?? "")")
        for part in ["board", "paint", "compose", "undo", "status", "waiting"] {
            #expect(FileManager.default.fileExists(atPath: shots + "/phone-\(part).png"), "\(part)")
        }
    }
}

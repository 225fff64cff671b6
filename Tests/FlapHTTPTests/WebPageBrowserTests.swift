import FlapHardware
import FlapLinux
import Foundation
import TestSupport
import Testing

/// flapd's page in a real headless Chromium: sign in, a wrong key refused, compose with the
/// preview, send, the board's cells reach the text in two browsers, a quick message saved and
/// sent, a slot cleared, a colour chip, the flip and expiry chosen, a painting (fill, keyboard
/// brush, letters) sent and saved, recent receipts, the sound muted from the page; axe-core
/// finds no serious violation, no console error.
@Suite(.cleansUp, .serialized, .timeLimit(.minutes(10))) struct WebPageBrowserTests {
    @Test func composeSendAndWatchTheBoardFlipInTwoBrowsers() async throws {
        // Sound to ALSA's null device, so the page can mute it.
        let alsa = FileManager.default.temporaryDirectory.appendingPathComponent("web-alsa-\(UUID().uuidString).conf").path
        try "pcm.nowhere { type null }\n".write(toFile: alsa, atomically: true, encoding: .utf8)
        let flapd = try await FlapdProcess.start(arguments: ["--sound-device", "nowhere"], environment: ["ALSA_CONFIG_PATH": alsa])
        teardown { await flapd.stop() }
        // A sender whose name has a space, for the page to clear.
        let past = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-60))
        #expect(
            try await flapd.api.postJSON("/v1/messages", #"{"text": "FROM MY PHONE", "sender": {"id": "my phone"}, "createdAt": "\#(past)"}"#).status
                == 202)
        let artifacts = PythonPeer.packageRoot.appendingPathComponent(".build/test-artifacts")
        try FileManager.default.createDirectory(at: artifacts, withIntermediateDirectories: true)
        let screenshot = artifacts.appendingPathComponent("web-page.png").path
        let result = try await ProcessRunner.run(
            try await PythonPeer.python(),
            [
                PythonPeer.peersDirectory.appendingPathComponent("browser_page_check.py").path,
                "http://127.0.0.1:\(flapd.apiPort)", flapd.apiKey, screenshot
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
        #expect(
            seen["slotsListed"] as? Bool == true && seen["slotCleared"] as? Bool == true,
            "a slot cleared, the board back to the other: \(seen["slotsText"] ?? "")")
        #expect(!(seen["slotsText"] as? String ?? "").contains("quick-messages") && !(seen["slotsText"] as? String ?? "").contains("(painting)"))
        #expect(seen["spacedSlotCleared"] as? Bool == true && seen["templateDeleted"] as? Bool == true, "names with a space cleared and deleted")
        #expect(seen["chipInText"] as? String == "{66} GO" && seen["chipShown"] as? Bool == true, "\(seen["chipInText"] ?? "")")
        #expect((seen["emojiOffered"] as? Int ?? 0) >= 40)
        #expect(
            seen["emojiPreview"] as? Bool == true && (seen["emojiNote"] as? String)?.hasPrefix("👍 shown as OK") == true, "\(seen["emojiNote"] ?? "")")
        #expect(
            seen["temporaryShown"] as? Bool == true && seen["temporaryListed"] as? Bool == true && seen["temporaryEnded"] as? Bool == true,
            "a temporary message shown, listed and ended early: \(seen["temporaryShown"] ?? "-"), \(seen["temporaryListed"] ?? "-"), \(seen["temporaryEnded"] ?? "-")"
        )
        let repeats = seen["repeats"] as? [[String: Any]] ?? []
        #expect(repeats.count == 3 && repeats.allSatisfy { $0["shown"] as? Bool == true && $0["displayed"] as? Bool == true }, "\(repeats)")
        #expect(repeats.allSatisfy { ($0["receipt"] as? String)?.hasPrefix("“") == true }, "the receipt names the message by its text: \(repeats)")
        let recent = seen["recentMessages"] as? [String] ?? []
        #expect(recent.filter { $0.contains("DINNER READY") && $0.contains("displayed") }.count >= 2, "each send its own receipt: \(recent)")
        #expect(!recent.contains { $0.hasPrefix("m-") }, "named by text, not by id: \(recent)")
        #expect((seen["slotExpiry"] as? String)?.contains("min left") == true, "an hour's expiry: \(seen["slotExpiry"] ?? "")")
        #expect(seen["filled"] as? Bool == true && seen["keyboardPainted"] as? Bool == true)
        #expect((seen["lettersTyped"] as? String)?.hasSuffix(": K") == true, "\(seen["lettersTyped"] ?? "")")
        #expect(seen["paintingShown"] as? Bool == true && seen["paintingReceipt"] as? Bool == true)
        #expect(seen["blueCells"] as? Int == 127, "the painting on the other browser's board")
        #expect(seen["paintingSaved"] as? Bool == true && seen["receiptsListed"] as? Bool == true)
        #expect(seen["boardKept"] as? Bool == true, "Keep the board saved what it shows as a quick message")
        // Sent for later from the composer: waiting in its list, not on the board, cancelled there.
        #expect(
            seen["sentForLater"] as? Bool == true && seen["scheduledListed"] as? Bool == true,
            "sent for \(seen["laterAt"] ?? ""): \(seen["laterReceipt"] ?? "")")
        #expect(seen["laterNotShown"] as? Bool == true && seen["scheduledCancelled"] as? Bool == true)
        #expect(seen["panelsListed"] as? Bool == true)
        #expect(seen["muted"] as? Bool == true, "\(seen["soundNote"] ?? "")")
        #expect(try await flapd.api.get("/v1/sound").object["mute"] as? Bool == true)
        #expect((seen["consoleErrors"] as? [String])?.isEmpty == true, "\(seen["consoleErrors"] ?? "")")
        // axe-core in the page: no serious or critical accessibility violation, signed out or in.
        #expect((seen["axeSignIn"] as? [Any])?.isEmpty == true, "\(seen["axeSignIn"] ?? "")")
        #expect((seen["axeApp"] as? [Any])?.isEmpty == true, "\(seen["axeApp"] ?? "")")
        #expect(!(seen["pageSource"] as? String ?? "").contains(flapd.apiKey))
        let urls = seen["urls"] as? [String] ?? []
        #expect(urls.count > 10 && !urls.contains { $0.contains(flapd.apiKey) }, "the key in no URL the browsers fetched")
        #expect(!(flapd.process.stderr + flapd.process.stdout).contains(flapd.apiKey))
        #expect(FileManager.default.fileExists(atPath: screenshot))
    }

    /// Two messages followed into the one receipt line: the older one's answer, arriving after the
    /// newer one was sent for later, does not write over "scheduled" (it did: CI saw "displayed").
    @Test func anOlderReceiptDoesNotWriteOverANewerOne() async throws {
        let flapd = try await FlapdProcess.start(arguments: ["--no-sound"])
        teardown { await flapd.stop() }
        let result = try await ProcessRunner.run(
            try await PythonPeer.python(),
            [
                PythonPeer.peersDirectory.appendingPathComponent("browser_receipt_check.py").path,
                "http://127.0.0.1:\(flapd.apiPort)", flapd.apiKey
            ])
        #expect(result.status == 0, "\(result.stderrText)")
        let seen = try #require(try JSONSerialization.jsonObject(with: Data(result.stdoutText.utf8)) as? [String: Any])
        #expect(seen["firstHeld"] as? Bool == true && seen["secondScheduled"] as? Bool == true, "\(seen)")
        let firstId = try #require(seen["firstId"] as? String)
        let after = seen["after"] as? String ?? ""
        #expect(after.contains("scheduled") && !after.contains(firstId), "before: \(seen["before"] ?? ""), after: \(after)")
        #expect((seen["consoleErrors"] as? [String])?.isEmpty == true, "\(seen["consoleErrors"] ?? "")")
    }

    /// A Flagship from 2026 (`--flap62 heart`, 6×22): the page, its preview and the widget draw
    /// its flap 62 as a heart, and a degree sign is left out rather than shown as one.
    @Test func aBoardWhoseFlap62IsAHeartDrawsItSo() async throws {
        let flapd = try await FlapdProcess.start(arguments: ["--flap62", "heart", "--no-sound"])
        teardown { await flapd.stop() }
        let result = try await ProcessRunner.run(
            try await PythonPeer.python(),
            [
                PythonPeer.peersDirectory.appendingPathComponent("browser_flap62_check.py").path,
                "http://127.0.0.1:\(flapd.apiPort)", flapd.apiKey, "132"
            ])
        #expect(result.status == 0, "\(result.stderrText)")
        let seen = try #require(try JSONSerialization.jsonObject(with: Data(result.stdoutText.utf8)) as? [String: Any])
        #expect(seen["cells"] as? Bool == true && seen["preview"] as? Bool == true, "\(seen)")
        #expect(seen["shown"] as? Bool == true && seen["widget"] as? Bool == true, "\(seen)")
        #expect((seen["consoleErrors"] as? [String])?.isEmpty == true, "\(seen["consoleErrors"] ?? "")")
    }

    /// A kiosk in a room, its strap on a serial port: the page draws the room's plot, a heart per
    /// member, and shows no heart rate anywhere.
    @Test func theRoomIsDrawnLiveWithoutAnyonesHeartRate() async throws {
        let broker = try await MosquittoBroker.start()
        teardown { await broker.stop() }
        let (sensor, path) = try LinuxSerialPort.pseudoTerminal(settings: SerialSettings(baudRate: 9600))
        let rate = [187, 193, 211, 227].first { !path.contains(String($0)) }!
        let writing = Task {
            while !Task.isCancelled {
                try? await sensor.write(Array("HR:\(rate)\n".utf8))
                try? await Task.sleep(for: .milliseconds(200))
            }
        }
        defer { writing.cancel() }
        let flapd = try await FlapdProcess.start(arguments: [
            "--no-sound", "--mqtt", "mqtt://127.0.0.1:\(broker.port)", "--room", "lobby", "--device-id", "web", "--sensor", "serial=\(path)"
        ])
        teardown { await flapd.stop() }
        // A sender whose name has a space, for the page to clear.
        let past = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-60))
        #expect(
            try await flapd.api.postJSON("/v1/messages", #"{"text": "FROM MY PHONE", "sender": {"id": "my phone"}, "createdAt": "\#(past)"}"#).status
                == 202)
        let artifacts = PythonPeer.packageRoot.appendingPathComponent(".build/test-artifacts")
        try FileManager.default.createDirectory(at: artifacts, withIntermediateDirectories: true)
        let screenshot = artifacts.appendingPathComponent("web-room.png").path
        let result = try await ProcessRunner.run(
            try await PythonPeer.python(),
            [
                PythonPeer.peersDirectory.appendingPathComponent("browser_room_check.py").path,
                "http://127.0.0.1:\(flapd.apiPort)", flapd.apiKey, screenshot, "\(rate)"
            ])
        #expect(result.status == 0, "\(result.stderrText)")
        let seen = try #require(try JSONSerialization.jsonObject(with: Data(result.stdoutText.utf8)) as? [String: Any])
        #expect(seen["roomShown"] as? Bool == true && seen["hearts"] as? Int == 1, "\(seen)")
        #expect((seen["label"] as? String)?.contains("Room lobby: 1 here") == true, "\(seen["label"] ?? "")")
        #expect(!(seen["legend"] as? String ?? "").isEmpty)
        #expect(seen["rateShown"] as? Bool == false)
        #expect((seen["axe"] as? [Any])?.isEmpty == true, "\(seen["axe"] ?? "")")
        #expect((seen["consoleErrors"] as? [String])?.isEmpty == true, "\(seen["consoleErrors"] ?? "")")
        await sensor.close()
    }

    /// A panel stepped by flapd itself, on a phone-sized screen: the page fits the width, and its
    /// calibration form nudges one module by a tenth of a flap. The inbox it found was damaged:
    /// the status says where it was set aside.
    @Test func theSourcesAreListedInAHouseholdsWords() async throws {
        let server = try await ContentServer.start()
        teardown { await server.stop() }
        let weather = Data(#"{"current": {"temperature_2m": 3.4}}"#.utf8)
        try await server.route("/forecast", body: weather, contentType: "application/json")
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("sources-page-\(UUID().uuidString).toml")
        try """
        [[source]]
        name = "weather"
        kind = "json"
        url = "\(server.base)/forecast"
        values = { temperature = "/current/temperature_2m" }

        [[source]]
        name = "door"
        kind = "webhook"
        fields = ["state"]

        [[trigger]]
        name = "visitor"
        source = "door"
        text = "SOMEONE AT THE DOOR"
        """.write(to: config, atomically: true, encoding: .utf8)
        let flapd = try await FlapdProcess.start(arguments: ["--config", config.path, "--no-sound"])
        teardown { await flapd.stop() }
        #expect(try await flapd.api.post("/v1/sources/door", json: ["state": "open"]).status == 200)
        let result = try await ProcessRunner.run(
            try await PythonPeer.python(),
            [
                PythonPeer.peersDirectory.appendingPathComponent("browser_sources_check.py").path, "http://127.0.0.1:\(flapd.apiPort)", flapd.apiKey
            ])
        #expect(result.status == 0, "\(result.stderrText)")
        let seen = try #require(try JSONSerialization.jsonObject(with: Data(result.stdoutText.utf8)) as? [String: Any])
        let links = seen["links"] as? String ?? "", opened = seen["opened"] as? String ?? ""
        #expect(seen["listed"] as? Bool == true, "\(links)")
        #expect(links.contains("When door: a push") && links.contains("Last shown"), "\(links)")
        // The values a template gets, one tap away.
        #expect(opened.contains("{{weather.temperature}} 3.4") && opened.contains("{{door.state}} open"), "\(opened)")
        #expect(!links.contains("{{weather.temperature}}"), "the values are shown before Details is opened: \(links)")
        #expect(try await eventually { try await server.requests("/forecast").count >= 2 }, "Fetch now did not fetch")
        #expect(seen["sidewaysScroll"] as? Int == 0, "the page is wider than a phone")
        #expect((seen["axe"] as? [Any])?.isEmpty == true, "\(seen["axe"] ?? "")")
        #expect((seen["consoleErrors"] as? [Any])?.isEmpty == true, "\(seen["consoleErrors"] ?? "")")
    }

    /// The board on a TV: /tv with the viewer key fills a 1920×1080 screen with the board, every
    /// cell reaches its letter when the panel's plan lands it and not before (the plan read from
    /// the same live stream), and it reconnects by itself when flapd restarts. With sound allowed
    /// by a tap, each landing is scheduled in Web Audio at its time with the board's clack, gain
    /// and volume; with the board muted, nothing is.
    @Test func theBoardOnATVFlipsAsThePanelsPlanHasIt() async throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("tv-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        let shots = PythonPeer.packageRoot.appendingPathComponent(".build/test-artifacts").path
        try FileManager.default.createDirectory(atPath: shots, withIntermediateDirectories: true)
        let result = try await ProcessRunner.run(
            try await PythonPeer.python(),
            [
                PythonPeer.peersDirectory.appendingPathComponent("browser_tv_check.py").path, ProcessRunner.builtProduct("flapd"), state,
                "tv-test-key", shots
            ])
        #expect(result.status == 0, "\(result.stderrText.suffix(3000))")
        let seen = try #require(try JSONSerialization.jsonObject(with: Data(result.stdoutText.utf8)) as? [String: Any])
        #expect(seen["cells"] as? Int == 132, "a 6×22 board")
        let size = seen["boardSize"] as? [Double] ?? []
        #expect((size.first ?? 0) > 1400 || (size.last ?? 0) > 900, "the board fills the screen: \(size)")
        #expect(seen["scrolls"] as? [Int] == [1920, 1080], "nothing scrolls: \(seen["scrolls"] ?? "")")
        #expect((seen["modulesMoved"] as? Int ?? 0) >= 7 && (seen["landedWrong"] as? [Any])?.isEmpty == true, "\(seen)")
        #expect((seen["landedEarly"] as? [Any])?.isEmpty == true, "cells landed before the plan's time: \(seen["landedEarly"] ?? "")")
        #expect((seen["text"] as? String)?.contains("HELLO TV") == true)
        // The clacks: a tap allows them; every landing still to come when the plan reached the
        // page is scheduled within 2 ms of it (the wall clock reads whole ms), with the plan's gain at the board's 70 %.
        #expect(seen["soundBefore"] as? String == "Tap for sound" && (seen["soundAfter"] as? String)?.hasPrefix("Sound on") == true, "\(seen)")
        #expect(seen["planVolume"] as? Double == 0.7, "\(seen["planVolume"] ?? "absent")")
        let sound = seen["sound"] as? [String: Any] ?? [:]
        let toCome = sound["toCome"] as? Int ?? 0
        #expect(toCome > 0 && (sound["scheduled"] as? Int ?? 0) >= toCome && sound["extra"] as? Int == 0, "\(sound)")
        #expect((sound["apartMax"] as? Double ?? .infinity) <= 2, "clacks scheduled away from their landings: \(sound)")
        #expect(sound["gainsWrong"] as? Int == 0 && sound["sampleSeconds"] as? [Double] == [0.08], "\(sound)")
        #expect(seen["mutedPlanVolume"] as? String == "absent" && seen["mutedScheduled"] as? Int == 0, "\(seen)")
        #expect((seen["mutedLabel"] as? String)?.contains("silent now") == true, "\(seen["mutedLabel"] ?? "")")
        #expect(seen["reconnecting"] as? Bool == true && seen["afterRestart"] as? Bool == true, "\(seen)")
        #expect((seen["consoleErrors"] as? [String])?.isEmpty == true, "\(seen["consoleErrors"] ?? "")")
    }

    /// A tablet as a panel of its own: `[[panel]] driver = "browser"` with a Note's size, beside a
    /// TV's flagship-sized browser panel. The owner's TV links name both; the tablet's shows a
    /// 3×15 board at 1024×768 that flips to the message, its plans carry the board's volume for
    /// the tablet to play, and flapd's own speaker plays no clack for a browser panel. The TV's
    /// panel is in its quiet hours (on a clock said to be right): its view is dimmed.
    @Test func aTabletIsAPanelOfItsOwn() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tablet-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("flapd.toml").path
        // Quiet hours from an hour ago to two hours on, in local time as flapd reads it.
        let hour = Calendar.current.component(.hour, from: Date())
        let quiet = String(format: "%02d:00-%02d:00", (hour + 23) % 24, (hour + 2) % 24)
        try """
        [time]
        clock = "trusted"

        [sound]
        device = "null"

        [[panel]]
        id = "tv"
        driver = "browser"
        quiet_hours = "\(quiet)"

        [[panel]]
        id = "tablet"
        driver = "browser"
        model = "note"
        """.write(toFile: file, atomically: true, encoding: .utf8)
        let flapd = try await FlapdProcess.start(arguments: ["--config", file])
        teardown { await flapd.stop() }
        let shots = PythonPeer.packageRoot.appendingPathComponent(".build/test-artifacts").path
        try FileManager.default.createDirectory(atPath: shots, withIntermediateDirectories: true)
        let result = try await ProcessRunner.run(
            try await PythonPeer.python(),
            [
                PythonPeer.peersDirectory.appendingPathComponent("browser_tablet_check.py").path, "http://127.0.0.1:\(flapd.apiPort)", flapd.apiKey,
                shots
            ])
        #expect(result.status == 0, "\(result.stderrText.suffix(3000))")
        let seen = try #require(try JSONSerialization.jsonObject(with: Data(result.stdoutText.utf8)) as? [String: Any])
        let links = seen["links"] as? [[String]] ?? []
        #expect(links.map { $0.first ?? "" } == ["tv", "tablet"] && links.allSatisfy { $0.count == 3 && $0[1] == "browser" }, "\(links)")
        #expect(links.last?.last?.hasSuffix("/tv?panel=tablet") == true && links.first?.last?.hasSuffix("/tv") == true, "\(links)")
        #expect(seen["linkPort"] as? String == "\(flapd.apiPort)", "the link is on the plain port")
        #expect(seen["cells"] as? Int == 45 && seen["planSize"] as? [Int] == [3, 15], "a Note: \(seen)")
        #expect(seen["scrolls"] as? [Int] == [1024, 768], "nothing scrolls: \(seen["scrolls"] ?? "")")
        #expect((seen["boardSize"] as? [Double])?.first ?? 0 > 900, "the board fills the tablet: \(seen["boardSize"] ?? "")")
        #expect(seen["shown"] as? Bool == true)
        #expect(seen["tvDimmed"] as? Bool == true && seen["tabletDimmed"] as? Bool == false, "quiet hours \(quiet): \(seen)")
        #expect(seen["planVolume"] as? Double == 0.7, "the tablet plays the clacks at the board's volume: \(seen["planVolume"] ?? "absent")")
        #expect(seen["soundWhileMoving"] as? String != "playing", "flapd played a browser panel's clacks itself")
        #expect((seen["consoleErrors"] as? [String])?.isEmpty == true, "\(seen["consoleErrors"] ?? "")")
        #expect(await flapd.terminate() == 0)
    }

    @Test func aDirectlyDrivenPanelIsNudgedFromAPhone() async throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("status-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        try Data(repeating: 0x5A, count: 8192).write(to: URL(fileURLWithPath: state + "/inbox.sqlite"))
        let flapd = try await FlapdProcess.start(
            stateDirectory: state, arguments: ["--panel", "spi=simulated", "--rows", "1", "--columns", "6", "--no-sound"])
        teardown { await flapd.stop() }
        let before = try await flapd.api.get("/v1/panels/main/calibration").object
        let result = try await ProcessRunner.run(
            try await PythonPeer.python(),
            [
                PythonPeer.peersDirectory.appendingPathComponent("browser_status_check.py").path, "http://127.0.0.1:\(flapd.apiPort)", flapd.apiKey
            ])
        #expect(result.status == 0, "\(result.stderrText)")
        let seen = try #require(try JSONSerialization.jsonObject(with: Data(result.stdoutText.utf8)) as? [String: Any])
        #expect(seen["calibrationShown"] as? Bool == true && seen["nudged"] as? Bool == true, "\(seen)")
        #expect(seen["sidewaysScroll"] as? Int == 0, "the page is wider than a phone")
        // Whether timed events may go by the clock, and why.
        // In a household's words; the rule and reason are one tap away.
        let links = seen["links"] as? String ?? ""
        #expect(
            seen["clockShown"] as? Bool == true && (links.contains("The clock is right") || links.contains("Waiting for the correct time")),
            "\(links)")
        #expect(!links.contains("nothing says whether"), "jargon shown before Details is opened: \(links)")
        #expect((seen["links"] as? String)?.contains("Damaged file set aside") == true, "\(seen["links"] ?? "")")
        // Quiet now and the default flip, from the page.
        #expect(
            seen["controlsSaved"] as? Bool == true && seen["controlsNote"] as? String == "Saved. The board holds still; messages wait.",
            "\(seen["controlsNote"] ?? "")")
        let controls = try await flapd.api.get("/v1/controls").object
        #expect(controls["paused"] as? Bool == true && controls["transition"] as? String == "diagonal", "\(controls)")
        let after = try await flapd.api.get("/v1/panels/main/calibration").object
        let (was, now) = (before["offsets"] as? [Int] ?? [], after["offsets"] as? [Int] ?? [])
        let tenth = Int(((after["stepsPerFlap"] as? Double ?? 0) / 10).rounded())
        #expect(now.count == 6 && was.count == 6 && now[2] == was[2] + tenth && now[0] == was[0], "\(was) → \(now)")
        #expect((seen["axe"] as? [Any])?.isEmpty == true, "\(seen["axe"] ?? "")")
        #expect((seen["consoleErrors"] as? [String])?.isEmpty == true, "\(seen["consoleErrors"] ?? "")")
    }
}

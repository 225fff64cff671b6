import FlapHardware
import FlapLinux
import FlapSimulated
import Foundation
import TestSupport
import Testing

/// "Find my board" through the API, the ports laid out as `/dev` is: a stable name leading to a
/// real pseudo-terminal with simulated RS-485 modules on its far end, on the real clock, as a USB
/// adapter would be; nothing is written to it until the owner asks.
@Suite(.cleansUp, .timeLimit(.minutes(2))) struct FindMyBoardTests {
    @Test func theOwnerFindsAnRS485WallByWhatAnswers() async throws {
        let dev = FileManager.default.temporaryDirectory.appendingPathComponent("dev-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dev + "/serial/by-id", withIntermediateDirectories: true)
        teardown { try? FileManager.default.removeItem(atPath: dev) }
        _ = FileManager.default.createFile(atPath: dev + "/fb0", contents: nil)
        let (wire, path) = try LinuxSerialPort.pseudoTerminal(settings: .rs485)
        try FileManager.default.createSymbolicLink(atPath: dev + "/serial/by-id/usb-FTDI_FT232R-if00-port0", withDestinationPath: path)
        let bus = SimulatedRS485Bus(port: wire, clock: ContinuousClock(), ids: [2, 3], rotorSteps: [0, 0])
        let running = Task { await bus.run() }
        teardown {
            running.cancel()
            await wire.close()
        }
        let flapd = try await InProcessFlapd.start(arguments: ["--no-sound"], time: .real, devices: dev)
        teardown { await flapd.stop() }

        let listed = try await flapd.api.get("/v1/hardware")
        #expect(listed.status == 200, "\(listed.text)")
        let ports = (listed.object["listed"] as? [String: Any])?["serialPorts"] as? [[String: Any]] ?? []
        #expect(ports.map { $0["path"] as? String } == [dev + "/serial/by-id/usb-FTDI_FT232R-if00-port0"], "\(listed.text)")
        #expect(ports.first?["answered"] == nil, "listed, not asked")
        #expect(((listed.object["listed"] as? [String: Any])?["local"] as? [String: Any])?["framebuffers"] as? [String] == [dev + "/fb0"])
        let received = await bus.received.count
        #expect(received == 0, "nothing written by a listing")

        #expect(try await flapd.api.post("/v1/hardware/search", json: ["firstID": 5, "lastID": 2]).status == 400)
        #expect(try await flapd.api.post("/v1/hardware/search", json: ["firstID": 1, "lastID": 200]).status == 400)
        let oversized = try await flapd.api.post("/v1/hardware/search", json: ["firstID": 1, "padding": String(repeating: "x", count: 2000)])
        #expect(oversized.status == 413, "a body over its budget is refused, not taken as empty: \(oversized.text)")
        let searched = try await flapd.api.post("/v1/hardware/search", json: ["firstID": 1, "lastID": 4])
        #expect(searched.status == 200, "\(searched.text)")
        let answered = ((searched.object["serialPorts"] as? [[String: Any]])?.first?["answered"] as? [String: Any]) ?? [:]
        #expect(answered["driver"] as? String == "rs485", "\(searched.text)")
        #expect((answered["modules"] as? [[String: Any]])?.map { $0["id"] as? Int } == [2, 3], "\(searched.text)")
        let after = try await flapd.api.get("/v1/hardware")
        #expect((after.object["lastSearch"] as? [String: Any]) != nil && after.object["searching"] == nil, "\(after.text)")

        // The same from a shell.
        let flapctl = ProcessRunner.builtProduct("flapctl")
        let options = ["--url", "http://127.0.0.1:\(flapd.apiPort)", "--api-key", flapd.apiKey]
        let shell = try await ProcessRunner.run(flapctl, ["hardware", "--search", "--first-id", "2", "--last-id", "3"] + options)
        #expect(
            shell.status == 0 && shell.stdoutText.contains("usb-FTDI_FT232R-if00-port0 (\(path)): RS-485 modules 2, 3"),
            "\(shell.stdoutText)\(shell.stderrText)")
        #expect(shell.stdoutText.contains("screens: \(dev)/fb0; SPI: none; GPIO chips: none"), "\(shell.stdoutText)")
        let listing = try await ProcessRunner.run(flapctl, ["hardware"] + options)
        #expect(listing.status == 0 && listing.stdoutText.contains("not asked yet (flapctl hardware --search)"), "\(listing.stdoutText)")

        // Not for anyone else: a stranger, or the viewer key.
        #expect(try await HTTPClient(base: "http://127.0.0.1:\(flapd.apiPort)").get("/v1/hardware").status == 401)
        let viewerKey = try String(contentsOfFile: flapd.stateDirectory + "/viewer-key", encoding: .utf8).trimmingCharacters(
            in: .whitespacesAndNewlines)
        let viewer = HTTPClient(base: "http://127.0.0.1:\(flapd.apiPort)", headers: ["Authorization": "Bearer \(viewerKey)"])
        #expect(try await viewer.post("/v1/hardware/search", json: [:]).status == 403)
    }

    /// Another flapd's Local API stands in for the Vestaboard: it answers as one does (401
    /// `Invalid API key`, the enablement trading a token for the key), over real HTTP.
    @Test func aVestaboardIsFoundByHowItRefusesAndItsLocalAPITurnedOn() async throws {
        let board = try await InProcessFlapd.start(arguments: ["--no-sound"], time: .real)
        teardown { await board.stop() }
        let flapd = try await InProcessFlapd.start(arguments: ["--no-sound"], time: .real)
        teardown { await flapd.stop() }
        func secret(_ name: String) throws -> String {
            try String(contentsOfFile: board.stateDirectory + "/" + name, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let address = "127.0.0.1:\(board.localAPIPort)"

        let found = try await flapd.api.post("/v1/hardware/vestaboard", json: ["address": address])
        #expect(found.status == 200 && found.object["vestaboard"] as? Bool == true && found.object["keyFile"] == nil, "\(found.text)")
        let other = try await flapd.api.post("/v1/hardware/vestaboard", json: ["address": "127.0.0.1:\(flapd.apiPort)"])
        #expect(
            other.object["vestaboard"] as? Bool == false && (other.object["said"] as? String)?.contains("not a Vestaboard") == true, "\(other.text)")
        let typo = try await flapd.api.post("/v1/hardware/vestaboard", json: ["address": "vesta board"])
        #expect(typo.status == 400 && typo.error.contains("column 6"), "\(typo.text)")
        let refused = try await flapd.api.post("/v1/hardware/vestaboard", json: ["address": address, "enablementToken": "not-the-token"])
        #expect(refused.status == 502 && refused.error.contains("not turned on"), "\(refused.text)")

        let enabled = try await flapd.api.post(
            "/v1/hardware/vestaboard", json: ["address": address, "enablementToken": try secret("local-api-enablement-token")])
        let keyFile = try #require(enabled.object["keyFile"] as? String, "\(enabled.text)")
        let key = try secret("local-api-key")
        #expect(try String(contentsOfFile: keyFile, encoding: .utf8) == key && !enabled.text.contains(key), "kept, never shown")
        let mode = try FileManager.default.attributesOfItem(atPath: keyFile)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect((try await flapd.api.get("/v1/hardware").object["vestaboardKeys"] as? [String]) == [keyFile])
        let shell = try await ProcessRunner.run(
            ProcessRunner.builtProduct("flapctl"),
            ["hardware", "--vestaboard", address, "--url", "http://127.0.0.1:\(flapd.apiPort)", "--api-key", flapd.apiKey])
        #expect(shell.status == 0 && shell.stdoutText.contains("a Vestaboard answered"), "\(shell.stdoutText)\(shell.stderrText)")
        // The kept key opens the board's Local API.
        let read = try await HTTPClient(base: "http://\(address)", headers: ["X-Vestaboard-Local-Api-Key": key]).get("/local-api/message")
        #expect(read.status == 200, "\(read.text)")
    }

    /// Straps are listened for through BlueZ, one listening at a time. (Where this board's own
    /// Bluetooth sensor holds the adapter the owner is sent to its readings; flapd --simulate, as
    /// here, reads simulated straps in its place.)
    @Test func strapsAreListenedForOneListeningAtATime() async throws {
        let flapd = try await InProcessFlapd.start(arguments: ["--no-sound"], time: .real)
        teardown { await flapd.stop() }
        #expect(try await flapd.api.post("/v1/hardware/straps", json: ["seconds": 0]).status == 400)
        // This machine may have no bluetoothd, nor a system bus: the source says so, and no strap is made up.
        let heard = try await flapd.api.post("/v1/hardware/straps", json: ["seconds": 1])
        #expect(heard.status == 200 && (heard.object["straps"] as? [Any])?.isEmpty == true, "\(heard.text)")
        #expect((heard.object["source"] as? String)?.hasPrefix("ble") == true, "\(heard.text)")

        // One listening at a time.
        async let one = flapd.api.post("/v1/hardware/straps", json: ["seconds": 5])
        async let other = flapd.api.post("/v1/hardware/straps", json: ["seconds": 5])
        let statuses = try await [one.status, other.status].sorted()
        #expect(statuses == [200, 409], "one listens, the other is told it already does")
    }
}

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
        FileManager.default.createFile(atPath: dev + "/fb0", contents: nil)
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
}

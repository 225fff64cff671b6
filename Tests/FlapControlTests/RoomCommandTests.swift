import Foundation
import TestSupport
import Testing

/// `flapctl room` against two flapd kiosks sharing a real mosquitto.
@Suite(.cleansUp, .timeLimit(.minutes(2))) struct RoomCommandTests {
    let flapctl = ProcessRunner.builtProduct("flapctl")

    @Test func createJoinShowWatchAndLeave() async throws {
        let broker = try await MosquittoBroker.start()
        teardown { await broker.stop() }
        let mqtt = ["--mqtt", "mqtt://127.0.0.1:\(broker.port)"]
        // Kiosks with simulated straps and no standing room.
        let a = try await FlapdProcess.start(arguments: mqtt + ["--device-id", "ka"])
        let b = try await FlapdProcess.start(arguments: mqtt + ["--device-id", "kb"])
        teardown { for kiosk in [a, b] { await kiosk.stop() } }

        let none = try await ProcessRunner.run(flapctl, ["room"], environment: a.clientEnvironment)
        #expect(none.status == 1 && none.stderrText.contains("not in a room"), "\(none.stderrText)")

        let created = try await ProcessRunner.run(flapctl, ["room", "create"], environment: a.clientEnvironment)
        #expect(created.status == 0, "\(created.stderrText)")
        let code = try #require(created.stdoutText.firstMatch(of: /code ([0-9A-Z]{6})/)?.1).description
        #expect(created.stdoutText.hasPrefix("room pair-\(code.lowercased()) (pair, code \(code)"))

        // b has three wearers: a room for two cannot take them with a's. (On a loaded machine its
        // simulated straps take a moment to be read: wait for all three.)
        _ = try await eventually(every: .milliseconds(100)) {
            let straps = (try await b.api.get("/v1/sensors").object["sensors"] as? [[String: Any]])?.first?["straps"] as? [[String: Any]] ?? []
            return straps.filter({ $0["state"] as? String == "connected" }).count == 3
        }
        let full = try await ProcessRunner.run(flapctl, ["room", "join", code], environment: b.clientEnvironment)
        #expect(full.status == 1 && full.stderrText.contains("full"), "\(full.stderrText)")
        let bad = try await ProcessRunner.run(flapctl, ["room", "join", "ABC"], environment: b.clientEnvironment)
        #expect(bad.status == 1 && bad.stderrText.contains("has 3"), "\(bad.stderrText)")

        let shown = try await ProcessRunner.run(flapctl, ["room", "--json"], environment: a.clientEnvironment)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(shown.stdoutText.utf8)) as? [String: Any])
        #expect(object["code"] as? String == code && object["kind"] as? String == "pair")

        let watched = try await ProcessRunner.run(
            flapctl, ["room", "watch", "--seconds", "1", "--width", "48", "--height", "24"], environment: a.clientEnvironment)
        #expect(watched.status == 0, "\(watched.stderrText)")
        #expect(watched.stdoutText.contains("▀") && watched.stdoutText.split(separator: "\n").count >= 12)

        let left = try await ProcessRunner.run(flapctl, ["room", "leave"], environment: a.clientEnvironment)
        #expect(left.status == 0 && left.stdoutText == "left pair-\(code.lowercased()); in no room now\n", "\(left.stdoutText)\(left.stderrText)")
    }
}

import FlapHardware
import FlapLinux
import Foundation
import TestSupport
import Testing

/// In a room, a member's heart rate travels only as its own samples: kiosk A reads a pulse sensor
/// at a rate nothing else produces; kiosk B, in the same room, never shows it, in any API answer
/// or log line, and no MQTT publication but A's samples carries it.
@Suite(.cleansUp, .timeLimit(.minutes(2))) struct RoomPrivacyTests {
    /// A rate nothing else produces: not the number of the test's pseudo-terminal either (it
    /// is part of the member's id).
    static func rate(avoiding path: String) -> Int { [187, 193, 211, 227].first { !path.contains(String($0)) }! }

    func mentions(_ rate: Int, _ text: String) -> Bool {
        // Letters or digits beside it make it part of a random name (a UUID in a path, a key).
        text.range(of: "(^|[^0-9A-Za-z.])\(rate)([^0-9A-Za-z]|$)", options: .regularExpression) != nil
    }

    @Test func anotherMembersHeartRateIsNeverShown() async throws {
        let broker = try await MosquittoBroker.start()
        teardown { await broker.stop() }
        let capture = try ChildProcess("/usr/bin/mosquitto_sub", ["-h", "127.0.0.1", "-p", "\(broker.port)", "-t", "#", "-v"])
        teardown { await capture.stop() }
        let (sensor, path) = try LinuxSerialPort.pseudoTerminal(settings: SerialSettings(baudRate: 9600))
        let rate = Self.rate(avoiding: path)
        func mentionsTheRate(_ text: String) -> Bool { mentions(rate, text) }
        let writing = Task {
            while !Task.isCancelled {
                try? await sensor.write(Array("HR:\(rate)\n".utf8))
                try? await Task.sleep(for: .milliseconds(200))
            }
        }
        defer { writing.cancel() }
        let mqtt = ["--mqtt", "mqtt://127.0.0.1:\(broker.port)", "--room", "lobby"]
        let a = try await FlapdProcess.start(arguments: mqtt + ["--device-id", "a", "--sensor", "serial=\(path)"])
        teardown { await a.stop() }
        let b = try await FlapdProcess.start(arguments: mqtt + ["--device-id", "b"])
        teardown { await b.stop() }

        // B sees A's member, synced with no one of its own rates.
        var seen = false
        _ = try await eventually(every: .milliseconds(100)) {
            let members = (try await b.api.get("/v1/room").object["members"] as? [[String: Any]]) ?? []
            seen = members.contains { ($0["id"] as? String)?.hasPrefix("a.serial.") == true }
            return seen
        }
        #expect(seen)
        // B's panel shows the room (its policy with --room and no file): wait for the summary to land.
        let summary = try await eventually(every: .milliseconds(100)) { try await b.api.get("/v1/board").text.contains("HERE") }
        #expect(summary)
        var answers: [String] = []
        // The web page's plot: places as fractions of the axes, for drawing only.
        let plot = try await b.api.get("/v1/room/plot").object
        let hearts = plot["hearts"] as? [[String: Any]] ?? []
        #expect(hearts.contains { ($0["id"] as? String)?.hasPrefix("a.serial.") == true && ($0["y"] as? Double ?? -1) > 0.5 }, "\(plot)")
        for path in ["/v1/room", "/v1/room/plot", "/v1/sensors", "/v1/status", "/v1/board", "/metrics"] {
            answers.append(try await b.api.get(path).text)
        }
        answers.append(try await a.api.get("/v1/room").text)
        for answer in answers { #expect(!mentionsTheRate(answer), "\(answer.prefix(300))") }
        // The plot as a picture: colours and half blocks, not one digit once the colour codes are gone.
        let picture = try await b.api.get("/v1/room/picture?width=64&height=32").text
        #expect(picture.contains("▀"))
        #expect(!picture.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression).contains { $0.isNumber })
        #expect(await b.terminate() == 0)
        #expect(await a.terminate() == 0)
        // Logs, and the panels (the room's summary, drawn on stdout).
        for line in (a.process.stderr + b.process.stderr + a.process.stdout + b.process.stdout).split(separator: "\n") {
            #expect(!mentionsTheRate(String(line)), "log: \(line)")
        }
        #expect(b.process.stdout.contains("HERE"))

        let published = capture.stdout.split(separator: "\n")
        let samples = published.filter { $0.hasPrefix("wematch/rooms/lobby/hr/a.serial.") }
        #expect(samples.contains { mentionsTheRate(String($0)) }, "the samples carry it (so the check below can see it)")
        for line in published where !line.hasPrefix("wematch/rooms/lobby/hr/") {
            #expect(!mentionsTheRate(String(line)), "MQTT: \(line)")
        }
        await sensor.close()
    }
}

import FlapHardware
import FlapLinux
import Foundation
import TestSupport
import Testing

/// Heart rates are shown, never kept: a real flapd reads a serial pulse sensor (a
/// pseudo-terminal written by the test) at a rate nothing else in flapd would produce, and
/// afterwards that rate is nowhere in its state directory, its database, its log at info level,
/// or its metrics.
@Suite(.cleansUp, .timeLimit(.minutes(2))) struct HeartRatePrivacyTests {
    /// A rate nothing else in flapd produces: not the number of the test's pseudo-terminal
    /// either (the log names the port).
    static func rate(avoiding path: String) -> Int { [187, 193, 211, 227].first { !path.contains(String($0)) }! }

    @Test func aHeartRateIsShownButNeverStoredLoggedOrLabelled() async throws {
        let (sensor, path) = try LinuxSerialPort.pseudoTerminal(settings: SerialSettings(baudRate: 9600))
        let rate = Self.rate(avoiding: path)
        func mentionsTheRate(_ text: String) -> Bool {
            // Letters or digits beside it make it part of a random name (a UUID in a path, a key).
            text.range(of: "(^|[^0-9A-Za-z.])\(rate)([^0-9A-Za-z]|$)", options: .regularExpression) != nil
        }
        let writing = Task {
            while !Task.isCancelled {
                try? await sensor.write(Array("{\"bpm\":\(rate),\"rr\":[321]}\n".utf8))
                try? await Task.sleep(for: .milliseconds(200))
            }
        }
        defer { writing.cancel() }
        let flapd = try await InProcessFlapd.start(arguments: ["--sensor", "serial=\(path)", "--log-level", "info"])
        var shown = false
        _ = try await eventually(every: .milliseconds(50)) {
            let sensors = try await flapd.api.get("/v1/sensors")
            let straps = ((sensors.object["sensors"] as? [[String: Any]])?.first?["straps"] as? [[String: Any]]) ?? []
            shown = straps.first?["bpm"] as? Int == rate
            return shown
        }
        #expect(shown, "GET /v1/sensors shows the rate")
        // A message too, so the inbox has rows to look through.
        _ = try await flapd.api.postJSON("/v1/messages", #"{"text": "HELLO"}"#)
        let metrics = try await flapd.api.get("/metrics").text
        #expect(metrics.contains("flapd_heart_rate_samples_total"))
        for line in metrics.split(separator: "\n") where line.contains("heart_rate") {
            #expect(!mentionsTheRate(String(line)), "metrics: \(line)")
        }
        await flapd.stop()
        writing.cancel()

        let log = flapd.said
        #expect(log.contains("serial \(path)"), "the log speaks of the sensor")
        for line in log.split(separator: "\n") { #expect(!mentionsTheRate(String(line)) && !line.contains("bpm"), "log: \(line)") }

        let files = try FileManager.default.subpathsOfDirectory(atPath: flapd.stateDirectory)
        for file in files {
            let data = FileManager.default.contents(atPath: flapd.stateDirectory + "/" + file) ?? Data()
            let text = String(decoding: data, as: UTF8.self)
            // As a stored reading would be named: keys and tokens are random text, where any
            // short word may turn up by chance ("bpm" did, once).
            #expect(!text.contains("\"bpm\"") && !text.contains("heart_rate") && !text.contains("heartRate"), "\(file)")
        }
        // Every table's rows, blobs read as text (message bodies are JSON in blobs).
        let script = """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            for (table,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'"):
                print("table", table)
                for row in db.execute(f'SELECT * FROM "{table}"'):
                    print([v.decode("utf-8", "replace") if isinstance(v, bytes) else v for v in row])
            """
        let dump = try await PythonPeer.run("/usr/bin/python3", ["-c", script, flapd.stateDirectory + "/inbox.sqlite"])
        let sql = String(decoding: dump, as: UTF8.self)
        #expect(sql.contains("HELLO"), "the dump holds the inbox's rows")
        for line in sql.split(separator: "\n") {
            #expect(!mentionsTheRate(String(line)) && !line.contains("bpm") && !line.lowercased().contains("heart"), "inbox: \(line)")
        }
        await sensor.close()
    }
}

import Foundation
import Testing
import TestSupport

/// A broker that sends malformed packets (a peer of the test's own, on a real socket): flapd
/// closes each such connection with the reason in its log, reconnects, and never crashes.
@Suite(.timeLimit(.minutes(2))) struct MQTTMalformedPacketTests {
    @Test func malformedPacketsCloseTheConnectionWithAReasonAndFlapdReconnects() async throws {
        let port = try MosquittoBroker.freePort()
        let broker = try ChildProcess(try await PythonPeer.python(), [PythonPeer.peersDirectory.appendingPathComponent("mqtt_bad_broker.py").path, "\(port)"])
        defer { Task { await broker.stop() } }
        for _ in 0..<300 where !broker.stdout.contains("listening") { try await Task.sleep(for: .milliseconds(10)) }
        let flapd = try await FlapdProcess.start(arguments: ["--no-sound", "--mqtt", "mqtt://127.0.0.1:\(port)", "--device-id", "victim"])
        defer { Task { await flapd.stop() } }
        for _ in 0..<3000 where !broker.stdout.contains("connection 5: well behaved") { try await Task.sleep(for: .milliseconds(10)) }
        #expect(broker.stdout.contains("connection 5: well behaved"), "\(broker.stdout)")
        for n in 1...4 {
            for _ in 0..<300 where !broker.stdout.contains("connection \(n): closed by the client") { try await Task.sleep(for: .milliseconds(10)) }
            #expect(broker.stdout.contains("connection \(n): closed by the client"), "\(broker.stdout)")
        }
        for _ in 0..<300 where !flapd.process.stderr.contains("over this client's maximum") { try await Task.sleep(for: .milliseconds(10)) }
        let log = flapd.process.stderr
        for reason in ["a packet's remaining length runs past four bytes", "PUBLISH is truncated in its properties (50 bytes announced, 2 left)",
                       "PUBLISH topic is not UTF-8", "a packet of 300004 bytes is over this client's maximum of 262144"] {
            #expect(log.contains("lost the MQTT broker; reconnecting reason=\(reason)"), "no \(reason) in:\n\(log)")
        }
        #expect(flapd.process.poll() == nil)
        #expect(try await flapd.api.get("/healthz").status == 200)
    }
}

import Foundation
import TestSupport
import Testing

/// A broker that sends malformed packets (a peer of the test's own, on a real socket): flapd
/// closes each such connection with the reason in its log, reconnects, and never crashes.
@Suite(.cleansUp, .timeLimit(.minutes(2))) struct MQTTMalformedPacketTests {
    @Test func malformedPacketsCloseTheConnectionWithAReasonAndFlapdReconnects() async throws {
        let port = try MosquittoBroker.freePort()
        let broker = try ChildProcess(
            try await PythonPeer.python(), [PythonPeer.peersDirectory.appendingPathComponent("mqtt_bad_broker.py").path, "\(port)"])
        teardown { await broker.stop() }
        _ = try await eventually(every: .milliseconds(10)) { broker.stdout.contains("listening") }
        let flapd = try await InProcessFlapd.start(arguments: ["--no-sound", "--mqtt", "mqtt://127.0.0.1:\(port)", "--device-id", "victim"])
        teardown { await flapd.stop() }
        _ = try await eventually(every: .milliseconds(10)) { broker.stdout.contains("connection 5: well behaved") }
        #expect(broker.stdout.contains("connection 5: well behaved"), "\(broker.stdout)")
        for n in 1...4 {
            _ = try await eventually(every: .milliseconds(10)) { broker.stdout.contains("connection \(n): closed by the client") }
            #expect(broker.stdout.contains("connection \(n): closed by the client"), "\(broker.stdout)")
        }
        _ = try await eventually(every: .milliseconds(10)) { flapd.said.contains("over this client's maximum") }
        let log = flapd.said
        for reason in [
            "a packet's remaining length runs past four bytes", "PUBLISH is truncated in its properties (50 bytes announced, 2 left)",
            "PUBLISH topic is not UTF-8", "a packet of 300004 bytes is over this client's maximum of 262144"
        ] {
            #expect(log.contains("lost the MQTT broker; reconnecting reason=\(reason)"), "no \(reason) in:\n\(log)")
        }
        #expect(flapd.isRunning)
        #expect(try await flapd.api.get("/healthz").status == 200)
    }
}

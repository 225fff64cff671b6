import Foundation
import TestSupport
import Testing

/// A broker that speaks only MQTT 3.1.1 (a small Python peer on a real socket): flapd falls back.
@Suite(.cleansUp, .timeLimit(.minutes(2))) struct MQTTFallbackTests {
    @Test func flapdFallsBackToMQTT311() async throws {
        let port = try MosquittoBroker.freePort()
        let broker = try await ChildProcess(
            try await PythonPeer.python(), [PythonPeer.peersDirectory.appendingPathComponent("mqtt311_only_broker.py").path, "\(port)"])
        teardown { await broker.stop() }
        // Generous waits: with the whole suite running, Python and flapd start slowly, and a refused
        // first connection puts flapd into its reconnect backoff.
        _ = try await eventually(every: .milliseconds(10)) { broker.stdout.contains("listening") }
        let flapd = try await InProcessFlapd.start(arguments: ["--no-sound", "--mqtt", "mqtt://127.0.0.1:\(port)", "--device-id", "old"])
        teardown { await flapd.stop() }
        _ = try await eventually(every: .milliseconds(20)) { flapd.said.contains("connected to the MQTT broker") }
        #expect(flapd.said.contains("does not speak MQTT 5; falling back to 3.1.1"))
        #expect(flapd.said.contains("connected to the MQTT broker"))
        #expect(broker.stdout.contains("connect level 5\n") && broker.stdout.contains("connect level 4\n"))
    }
}

import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// flapd killed with SIGKILL several times during a burst of MQTT messages from five
/// independent publishers (paho-mqtt): every message whose acknowledgement reached its
/// publisher ends with a receipt, each sender's newest message holds its slot, and nothing is
/// shown twice. The broker holds what flapd has not acknowledged for its persistent session;
/// flapd acknowledges only what it has committed.
@Suite(.cleansUp, .timeLimit(.minutes(5)), .serialized) struct MQTTCrashSafetyTests {
    static let publishers = 5
    static let perPublisher = 400
    /// flapd is killed when its inbox has committed this many messages (across its restarts).
    static let kills = [200, 700, 1200]

    @Test(arguments: [1, 2]) func aKilledFlapdLosesNoAcknowledgedMessageAndShowsNoneTwice(qos: Int) async throws {
        let logs = try await Self.burstWithKills(qos: qos) { flapd, acknowledged in
            // flapd takes what the broker kept for it, then every acknowledged message has a receipt.
            _ = try await eventually(every: .milliseconds(20)) { try await Self.committed(flapd) >= acknowledged.count }
            #expect(try await Self.committed(flapd) == acknowledged.count)
            var lost: [String] = []
            for id in acknowledged where try await flapd.api.get("/v1/receipts/\(id)").status != 200 { lost.append(id) }
            #expect(lost.isEmpty, "acknowledged but lost: \(lost.sorted().prefix(20))")
            let slots = try await flapd.api.get("/v1/slots").object["slots"] as? [[String: Any]] ?? []
            #expect(Set(slots.compactMap { $0["id"] as? String }) == Set((0..<Self.publishers).map { "s\($0)-\(Self.perPublisher - 1)" }))
        }
        #expect(logs.components(separatedBy: "session=resumed").count - 1 >= Self.kills.count, "flapd did not resume its session after each kill")
    }

    /// The same burst without ids: each message is known by its sender and text. The broker's
    /// redeliveries after each kill (marked DUP) are recognised as the messages already taken,
    /// though newer ones from the same sender were committed with them.
    @Test func withoutIdsNothingAcknowledgedIsLostAndNothingIsTakenTwice() async throws {
        _ = try await Self.burstWithKills(qos: 1, idPrefix: "-") { flapd, acknowledged in
            // Every message once: as many committed as were published, each sender's texts all there, none twice.
            let total = Self.publishers * Self.perPublisher
            _ = try await eventually(every: .milliseconds(20)) { try await Self.committed(flapd) >= total }
            #expect(try await Self.committed(flapd) == total, "a redelivery was taken as a new message")
            for publisher in 0..<Self.publishers {
                let receipts =
                    try await flapd.api.get("/v1/receipts?sender=sender\(publisher)&limit=500").object["receipts"] as? [[String: Any]] ?? []
                let texts = receipts.compactMap { $0["text"] as? String }
                #expect(
                    texts.count == Self.perPublisher && Set(texts).count == Self.perPublisher,
                    "sender\(publisher): \(texts.count) receipts, \(Set(texts).count) texts")
                let missing = acknowledged.filter { $0.hasPrefix("sender\(publisher)/") && !texts.contains(String($0.split(separator: "/")[1])) }
                #expect(missing.isEmpty, "acknowledged but lost: \(missing.sorted().prefix(10))")
            }
        }
    }

    /// Five publishers burst while flapd is killed at each of ``kills`` and started again; then
    /// `check` gets the last flapd and what the publishers saw acknowledged (ids, or with
    /// `idPrefix` "-" sender/text), and once the panel rests, nothing was shown twice across
    /// every run. Returns the runs' logs.
    static func burstWithKills(
        qos: Int, idPrefix: String? = nil,
        check: (FlapdProcess, Set<String>) async throws -> Void
    ) async throws -> String {
        // Enough room at the broker for everything published while flapd is down.
        let broker = try await MosquittoBroker.start(extraConfiguration: "max_queued_messages 100000\n")
        teardown { await broker.stop() }
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("mqtt-crash-\(UUID().uuidString)").path
        let arguments = ["--no-sound", "--rate-limit", "0", "--mqtt", "mqtt://127.0.0.1:\(broker.port)", "--device-id", "crash"]
        var flapd = try await Self.start(state: state, arguments: arguments)
        let ackedFile = state + "-acked"
        let peer = try ChildProcess(
            try await PythonPeer.python(),
            [
                PythonPeer.peersDirectory.appendingPathComponent("mqtt_publishers.py").path, "\(broker.port)", "vestawidget/crash/message",
                "\(qos)", "\(Self.publishers)", "\(Self.perPublisher)", ackedFile
            ] + (idPrefix.map { [$0] } ?? []))
        teardown { await peer.stop() }

        var logs = ""
        for threshold in Self.kills {
            _ = try await eventually(every: .milliseconds(10)) { try await Self.committed(flapd) >= threshold }
            flapd.process.signal(SIGKILL)
            #expect(await flapd.process.wait() == 128 + SIGKILL)
            logs += flapd.process.stderr
            flapd = try await Self.start(state: state, arguments: arguments)
        }
        _ = try await eventually(patience: .seconds(150), every: .milliseconds(100)) { peer.stdout.contains("done") }
        let acknowledged = Set(((try? String(contentsOfFile: ackedFile, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init))
        let total = Self.publishers * Self.perPublisher
        #expect(acknowledged.count == total, "the publishers were acknowledged \(acknowledged.count) of \(total): \(peer.stdout)")
        try await check(flapd, acknowledged)

        // Once the panel rests on what it chose, a second showing would have begun.
        #expect(try await eventually(every: .milliseconds(50)) { try await CrashSafetyTests.idle(flapd) }, "the panel never came to rest")
        await flapd.stop()
        logs += flapd.process.stderr
        let shown = timesShown(inLog: logs)
        #expect(shown.values.allSatisfy { $0 == 1 }, "shown more than once: \(shown.filter { $0.value > 1 })")
        return logs
    }

    static func start(state: String, arguments: [String]) async throws -> FlapdProcess {
        let flapd = try await FlapdProcess.start(stateDirectory: state, arguments: arguments)
        _ = try await eventually(every: .milliseconds(10)) { flapd.process.stderr.contains("connected to the MQTT broker") }
        return flapd
    }

    /// Messages the inbox has committed, by its receipts.
    static func committed(_ flapd: FlapdProcess) async throws -> Int {
        let receipts = try await flapd.api.get("/v1/status").object["receipts"] as? [String: Int] ?? [:]
        return receipts.values.reduce(0, +)
    }
}

import FlapMQTT
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The MQTT part of `flapctl bench --service --mqtt URL`: publish → plan start (one message at a
/// time, matched with flapd's debug log of plan starts), messages a second sustained (4
/// publishers at full speed, until flapd has a receipt for every one), and flapd's own measure
/// of the window between libmosquitto's PUBACK and the commit.
struct MQTTBench {
    var url: String
    var api: String
    var log: String
    var messages: Int
    var output: StandardStream

    func run() async throws {
        let settings = try MQTTSettings(url: url, deviceID: "bench")
        let publisher = try MQTTClient(options: MQTTOptions(host: settings.host, port: settings.port, clientID: "bench-pub"))
        var events = publisher.events.makeAsyncIterator()
        publisher.start()
        defer { publisher.stop() }
        while let event = await events.next() { if case .connected(0, _) = event { break } }

        var sent: [String: Double] = [:]
        for i in 0..<messages {
            let id = "mqtt-bench-\(i)"
            sent[id] = Date().timeIntervalSince1970
            try publisher.publish("vestawidget/bench/message", Array(#"{"id": "\#(id)", "sender": {"id": "b\#(i % 5)"}, "text": "m \#(i)"}"#.utf8), qos: 1)
            try await Task.sleep(for: .milliseconds(10))  // one at a time: each plan belongs to one message
        }
        try await Task.sleep(for: .milliseconds(500))
        var latencies: [Double] = []
        for line in try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n") where line.contains("plan started") {
            guard let at = ServiceBench.field("at", in: line).flatMap(Double.init), let id = ServiceBench.field("message", in: line),
                  let start = sent[id] else { continue }
            latencies.append(at - start)
        }
        latencies.sort()
        if !latencies.isEmpty {
            func p(_ q: Double) -> Double { latencies[min(latencies.count - 1, Int(Double(latencies.count) * q))] }
            write("MQTT publish → plan start, \(latencies.count) messages", "p50 \(ServiceBench.ms(p(0.5))), p99 \(ServiceBench.ms(p(0.99)))")
        }

        // Sustained: 4 publishers, as fast as libmosquitto takes them; they stay connected until
        // flapd has committed everything (libmosquitto drops what it has not sent when stopped).
        let before = try await receiptTotal()
        let burst = max(messages * 4, 2000)
        var publishers: [MQTTClient] = []
        for p in 0..<4 {
            let client = try MQTTClient(options: MQTTOptions(host: settings.host, port: settings.port, clientID: "bench-burst-\(p)"))
            var events = client.events.makeAsyncIterator()
            client.start()
            while let event = await events.next() { if case .connected(0, _) = event { break } }
            publishers.append(client)
        }
        defer { publishers.forEach { $0.stop() } }
        let start = ContinuousClock.now
        for i in 0..<(burst / 4) {
            for (p, client) in publishers.enumerated() {
                let body = #"{"id": "burst-\#(p)-\#(i)", "sender": {"id": "burst\#(p)"}, "text": "\#(i)"}"#
                while (try? client.publish("vestawidget/bench/message", Array(body.utf8), qos: 1)) == nil {
                    try await Task.sleep(for: .milliseconds(1))
                }
            }
        }
        var total = try await receiptTotal()
        while total - before < burst, start.duration(to: .now) < .seconds(120) {
            // Not too often: /v1/status counts every receipt, on the same inbox the burst fills.
            try await Task.sleep(for: .milliseconds(250))
            total = try await receiptTotal()
        }
        let elapsed = start.duration(to: .now)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        write("MQTT burst, 4 publishers: \(total - before)/\(burst) committed", String(format: "%.0f messages/s", Double(total - before) / seconds))

        let metrics = try await text(api + "/metrics")
        let sum = metrics.split(separator: "\n").first { $0.hasPrefix("flapd_mqtt_ack_window_seconds_sum") }.flatMap { Double($0.split(separator: " ").last ?? "") } ?? 0
        let count = metrics.split(separator: "\n").first { $0.hasPrefix("flapd_mqtt_ack_window_seconds_count") }.flatMap { Double($0.split(separator: " ").last ?? "") } ?? 0
        if count > 0 { write("PUBACK → commit window (flapd's metric), mean", ServiceBench.ms(sum / count)) }
        output.write("reproduce: mosquitto -p 1883 & swift build -c release && .build/release/flapctl bench --service --mqtt mqtt://127.0.0.1:1883\n")
        output.flush()
    }

    private func receiptTotal() async throws -> Int {
        let data = Data(try await text(api + "/v1/status").utf8)
        let receipts = (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["receipts"] as? [String: Int] ?? [:]
        return receipts.values.reduce(0, +)
    }

    private func text(_ url: String) async throws -> String {
        var request = URLRequest(url: URL(string: url)!)
        request.setValue("Bearer bench", forHTTPHeaderField: "Authorization")
        return String(decoding: try await URLSession.shared.data(for: request).0, as: UTF8.self)
    }

    private func write(_ name: String, _ value: String) {
        output.write("\(name.padding(toLength: 48, withPad: " ", startingAt: 0)) \(value)\n")
        output.flush()
    }
}

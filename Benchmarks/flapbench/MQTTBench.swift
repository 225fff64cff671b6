import FlapControl
import FlapMQTTClient
import Foundation

/// The MQTT part of `flapbench --service --mqtt URL`: publish → plan start (one message at a
/// time, matched with flapd's debug log of plan starts), messages a second sustained (4
/// publishers at full speed, until flapd has a receipt for every one), and how long flapd held
/// each message before acknowledging it (its PUBACK leaves after the commit), from flapd's own
/// histogram.
struct MQTTBench {
    var url: String
    var api: String
    var log: String
    var messages: Int
    var output: StandardStream

    func run() async throws {
        let broker = try MQTTAddress(url: url)
        let publisher = try MQTTClient(options: MQTTOptions(host: broker.host, port: broker.port, clientID: "bench-pub"))
        var events = publisher.events.makeAsyncIterator()
        publisher.start()
        defer { publisher.stop() }
        while let event = await events.next() { if case .connected(0, _) = event { break } }

        var sent: [String: Double] = [:]
        for i in 0..<messages {
            let id = "mqtt-bench-\(i)"
            sent[id] = Date().timeIntervalSince1970
            try publisher.publish(
                "vestawidget/bench/message", Array(#"{"id": "\#(id)", "sender": {"id": "b\#(i % 5)"}, "text": "m \#(i)"}"#.utf8), qos: 1)
            try await Task.sleep(for: .milliseconds(10))  // one at a time: each plan belongs to one message
        }
        try await Task.sleep(for: .milliseconds(500))
        var latencies: [Double] = []
        for line in try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n") where line.contains("plan started") {
            guard let at = ServiceBench.field("at", in: line).flatMap(Double.init), let id = ServiceBench.field("message", in: line),
                let start = sent[id]
            else { continue }
            latencies.append(at - start)
        }
        latencies.sort()
        if !latencies.isEmpty {
            func p(_ q: Double) -> Double { latencies[min(latencies.count - 1, Int(Double(latencies.count) * q))] }
            write("MQTT publish → plan start, \(latencies.count) messages", "p50 \(ServiceBench.ms(p(0.5))), p99 \(ServiceBench.ms(p(0.99)))")
        }

        // Sustained: 4 publishers, as fast as the broker takes them; they stay connected until
        // flapd has committed everything.
        let before = try await receiptTotal()
        let delaysBefore = try await acknowledgementDelays()
        let burst = max(messages * 4, 2000)
        var publishers: [MQTTClient] = []
        for p in 0..<4 {
            let client = try MQTTClient(options: MQTTOptions(host: broker.host, port: broker.port, clientID: "bench-burst-\(p)"))
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
                try client.publish("vestawidget/bench/message", Array(body.utf8), qos: 1)
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

        // The burst's own acknowledgement delays: the histogram's growth over it.
        let delaysAfter = try await acknowledgementDelays()
        let burstDelays = delaysAfter.map { bound, count in (bound, count - (delaysBefore.first { $0.0 == bound }?.1 ?? 0)) }
        if let total = burstDelays.last?.1, total > 0, let p99 = burstDelays.first(where: { Double($0.1) >= 0.99 * Double(total) }),
            let p50 = burstDelays.first(where: { Double($0.1) >= 0.5 * Double(total) })
        {
            func bound(_ b: Double) -> String { b.isInfinite ? "over 1 s" : "≤ " + ServiceBench.ms(b) }
            write("arrival → PUBACK in flapd (after commit), burst", "p50 \(bound(p50.0)), p99 \(bound(p99.0)) (\(total) messages)")
        }
        output.write(
            "reproduce: mosquitto -p 1883 & swift build -c release --static-swift-stdlib && .build/release/flapbench --service --mqtt mqtt://127.0.0.1:1883\n"
        )
        output.flush()
    }

    /// flapd's histogram of arrival → acknowledgement: (upper bound in seconds, cumulative count).
    private func acknowledgementDelays() async throws -> [(Double, Int)] {
        try await text(api + "/metrics").split(separator: "\n").compactMap { line in
            guard line.hasPrefix("flapd_mqtt_ack_delay_seconds_bucket"), let le = line.range(of: "le=\""),
                let count = Int(line.split(separator: " ").last ?? "")
            else { return nil }
            let bound = line[le.upperBound...].prefix { $0 != "\"" }
            return (bound == "+Inf" ? .infinity : Double(bound) ?? .infinity, count)
        }.sorted { $0.0 < $1.0 }
    }

    private func receiptTotal() async throws -> Int {
        let data = Data(try await text(api + "/v1/status").utf8)
        let receipts = (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["receipts"] as? [String: Int] ?? [:]
        return receipts.values.reduce(0, +)
    }

    private func text(_ url: String) async throws -> String {
        String(decoding: try await HTTPExchange.send("GET", url, headers: [("Authorization", "Bearer bench")]).body, as: UTF8.self)
    }

    private func write(_ name: String, _ value: String) {
        output.write("\(name.padding(toLength: 48, withPad: " ", startingAt: 0)) \(value)\n")
        output.flush()
    }
}

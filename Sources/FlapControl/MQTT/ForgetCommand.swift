import ArgumentParser
import FlapJSON
import FlapMQTTClient
import FoundationEssentials

/// `flapctl forget`: removes a display that is gone for good from MQTT: its Home Assistant
/// entities and its retained availability and board, so nothing lingers as "unavailable".
struct ForgetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forget",
        abstract: "Remove a retired display from the MQTT broker and Home Assistant.",
        discussion: HelpExamples.discussion(
            "forget",
            "Publishes empty retained messages to the display's discovery configs, availability and state. Senders' retained slots for it (slot/<sender>) are theirs to clear."
        ))

    @Option(help: "The broker: mqtt://HOST:PORT.")
    var mqtt: String

    @Option(help: "The display's device id.")
    var deviceId: String

    @Option(help: "The base topic (default vestawidget).")
    var baseTopic = "vestawidget"

    func run() async throws {
        let connection = try await CommandConnection.open(url: mqtt, timeout: 10)
        defer { connection.close() }
        let client = connection.client
        // What flapd retains for it: found by asking the broker for everything under its discovery
        // prefix and its base topic (each panel of several, the controls, the picture…), and the
        // fixed ones in any case.
        let device = "vestawidget_\(deviceId)"
        var topics = Set([
            "homeassistant/text/\(device)/message/config", "homeassistant/sensor/\(device)/board/config",
            "homeassistant/sensor/\(device)/outcome/config", "\(baseTopic)/\(deviceId)/availability",
            "\(baseTopic)/\(deviceId)/state", "\(baseTopic)/\(deviceId)/ha/outcome"
        ])
        // The broker sends what a filter retains as it takes the subscription, before it takes a
        // probe sent after it on the same connection: once the probe is back, all have come.
        for (filter, probe) in [
            ("homeassistant/#", "homeassistant/\(device)_forget/probe"), ("\(baseTopic)/\(deviceId)/#", "\(baseTopic)/\(deviceId)/forget-probe")
        ] {
            try client.subscribe(filter, qos: 1)
            try client.publish(probe, Array("probe".utf8), qos: 1, retain: false)
            while let event = await connection.events.next() {
                guard case .message(let m) = event else { continue }
                if m.topic == probe { break }
                guard m.retained, !m.payload.isEmpty else { continue }
                let parts = m.topic.split(separator: "/")
                // Its own configs, and its panels' (whose device names it as the one they go through:
                // another display's id may begin with this one's).
                let isDiscovery =
                    parts.count == 5 && parts[0] == "homeassistant" && parts[4] == "config"
                    && (parts[2] == device
                        || (parts[2].hasPrefix(device + "_") && (try? JSONValue(parsing: m.payload))?["device"]?["via_device"]?.string == device))
                // A sender's retained slot is theirs to clear.
                let isOwn = m.topic.hasPrefix("\(baseTopic)/\(deviceId)/") && !m.topic.hasPrefix("\(baseTopic)/\(deviceId)/slot/")
                if isDiscovery || isOwn { topics.insert(m.topic) }
            }
        }
        let ordered = topics.sorted()
        // Subscribed to the same topics, each comes back (empty) once the broker has cleared it;
        // disconnecting earlier could drop what the client has not sent yet.
        var pending = topics
        for topic in ordered { try client.publish(topic, [], qos: 1, retain: true) }
        while !pending.isEmpty, let event = await connection.events.next() {
            if case .message(let m) = event, m.payload.isEmpty, pending.remove(m.topic) != nil { print("cleared \(m.topic)") }
        }
        guard pending.isEmpty else { throw ConnectionError("the broker did not confirm \(pending.sorted().joined(separator: ", "))") }
    }
}

import ArgumentParser
import FlapMQTTClient
import FoundationEssentials

/// `flapctl forget`: removes a display that is gone for good from MQTT: its Home Assistant
/// entities and its retained availability and board, so nothing lingers as "unavailable".
struct ForgetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forget",
        abstract: "Remove a retired display from the MQTT broker and Home Assistant.",
        discussion: HelpExamples.discussion("forget", "Publishes empty retained messages to the display's discovery configs, availability and state. Senders' retained slots for it (slot/<sender>) are theirs to clear."))

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
        let topics = [
            "homeassistant/text/vestawidget_\(deviceId)/message/config",
            "homeassistant/sensor/vestawidget_\(deviceId)/board/config",
            "homeassistant/sensor/vestawidget_\(deviceId)/outcome/config",
            "\(baseTopic)/\(deviceId)/availability",
            "\(baseTopic)/\(deviceId)/state",
            "\(baseTopic)/\(deviceId)/ha/outcome",
        ]
        // Subscribed to the same topics, each comes back (empty) once the broker has cleared it;
        // disconnecting earlier could drop what the client has not sent yet.
        for topic in topics { try client.subscribe(topic, qos: 1) }
        try await Task.sleep(for: .milliseconds(100))
        var pending = Set(topics)
        for topic in topics { try client.publish(topic, [], qos: 1, retain: true) }
        while !pending.isEmpty, let event = await connection.events.next() {
            if case .message(let m) = event, m.payload.isEmpty, pending.remove(m.topic) != nil { print("cleared \(m.topic)") }
        }
        guard pending.isEmpty else { throw ConnectionError("the broker did not confirm \(pending.sorted().joined(separator: ", "))") }
    }
}

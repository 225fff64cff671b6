import FlapMQTTClient
import FoundationEssentials

/// Home Assistant MQTT discovery: the display as a `text` entity (send it a message), a `sensor`
/// with the board's text, and a `sensor` with what became of the text entity's last message
/// (its status, with the reason and warnings as attributes), all following the availability topic. Devices announced
/// before but no longer configured are removed (empty retained configs), so a display taken out
/// of the configuration disappears from Home Assistant.
struct HomeAssistantDiscovery: Sendable {
    let settings: MQTTSettings
    let stateDirectory: String

    private var announcedFile: String { stateDirectory + "/mqtt-announced-devices" }

    /// A discovery config, in Home Assistant's snake_case keys; what an entity lacks is left out.
    struct Entity: Encodable {
        var name: String
        var uniqueId: String
        var commandTopic: String?
        var stateTopic: String?
        var valueTemplate: String?
        var jsonAttributesTopic: String?
        var availabilityTopic: String
        var max: Int?
        var mode: String?
        var device: Device
    }

    struct Device: Encodable {
        var identifiers: [String]
        var name: String
        var manufacturer: String
        var model: String
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    func configTopics(for device: String) -> [String] {
        ["homeassistant/text/vestawidget_\(device)/message/config", "homeassistant/sensor/vestawidget_\(device)/board/config",
         "homeassistant/sensor/vestawidget_\(device)/outcome/config"]
    }

    func announce(_ client: MQTTClient) {
        let device = settings.deviceID
        let base = "\(settings.baseTopic)/\(device)"
        let identity = Device(identifiers: ["vestawidget_\(device)"], name: "VestaWidget \(device)", manufacturer: "VestaWidget", model: "flapd")
        let text = Entity(name: "Message", uniqueId: "vestawidget_\(device)_message", commandTopic: "\(base)/ha/set",
                          availabilityTopic: "\(base)/availability", max: 255, mode: "text", device: identity)
        let sensor = Entity(name: "Board", uniqueId: "vestawidget_\(device)_board", stateTopic: "\(base)/state",
                            valueTemplate: "{{ value_json.text | join(' ') | trim }}", jsonAttributesTopic: "\(base)/state",
                            availabilityTopic: "\(base)/availability", device: identity)
        let outcome = Entity(name: "Last message", uniqueId: "vestawidget_\(device)_outcome", stateTopic: "\(base)/ha/outcome",
                             valueTemplate: "{{ value_json.status }}", jsonAttributesTopic: "\(base)/ha/outcome",
                             availabilityTopic: "\(base)/availability", device: identity)
        let topics = configTopics(for: device)
        for (topic, body) in zip(topics, [text, sensor, outcome]) {
            if let data = try? Self.encoder.encode(body) { try? client.publish(topic, Array(data), qos: 1, retain: true) }
        }
        // Forget devices announced earlier from this state directory under another id.
        let earlier = ((try? String(contentsOfFile: announcedFile, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        for old in earlier where old != device {
            for topic in configTopics(for: old) { try? client.publish(topic, [], qos: 1, retain: true) }
            for leaf in ["availability", "ha/outcome"] { try? client.publish("\(settings.baseTopic)/\(old)/\(leaf)", [], qos: 1, retain: true) }
        }
        try? (device + "\n").write(toFile: announcedFile, atomically: true, encoding: .utf8)
    }
}

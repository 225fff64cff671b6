import Foundation

/// Home Assistant MQTT discovery: the display as a `text` entity (send it a message) and a
/// `sensor` with the board's text, both following the availability topic. Devices announced
/// before but no longer configured are removed (empty retained configs), so a display taken out
/// of the configuration disappears from Home Assistant.
struct HomeAssistantDiscovery: Sendable {
    let settings: MQTTSettings
    let stateDirectory: String

    private var announcedFile: String { stateDirectory + "/mqtt-announced-devices" }

    func configTopics(for device: String) -> [String] {
        ["homeassistant/text/vestawidget_\(device)/message/config", "homeassistant/sensor/vestawidget_\(device)/board/config"]
    }

    func announce(_ client: MQTTClient) {
        let device = settings.deviceID
        let base = "\(settings.baseTopic)/\(device)"
        let identity: [String: Any] = ["identifiers": ["vestawidget_\(device)"], "name": "VestaWidget \(device)",
                                       "manufacturer": "VestaWidget", "model": "flapd"]
        let text: [String: Any] = ["name": "Message", "unique_id": "vestawidget_\(device)_message", "command_topic": "\(base)/ha/set",
                                   "availability_topic": "\(base)/availability", "max": 255, "mode": "text", "device": identity]
        let sensor: [String: Any] = ["name": "Board", "unique_id": "vestawidget_\(device)_board", "state_topic": "\(base)/state",
                                     "value_template": "{{ value_json.text | join(' ') | trim }}",
                                     "json_attributes_topic": "\(base)/state", "availability_topic": "\(base)/availability", "device": identity]
        let topics = configTopics(for: device)
        for (topic, body) in zip(topics, [text, sensor]) {
            if let data = try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys]) {
                try? client.publish(topic, Array(data), qos: 1, retain: true)
            }
        }
        // Forget devices announced earlier from this state directory under another id.
        let earlier = ((try? String(contentsOfFile: announcedFile, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        for old in earlier where old != device {
            for topic in configTopics(for: old) { try? client.publish(topic, [], qos: 1, retain: true) }
            try? client.publish("\(settings.baseTopic)/\(old)/availability", [], qos: 1, retain: true)
        }
        try? (device + "\n").write(toFile: announcedFile, atomically: true, encoding: .utf8)
    }
}

import FlapCore
import FlapMQTTClient
import FoundationEssentials

/// Home Assistant MQTT discovery: one device with the entities a person expects of a board
/// (docs/home-assistant.md): a `text` to send, `sensor`s for the board's text and what became of
/// Home Assistant's last message, a `button` to clear, `switch`es for quiet now and mute, a
/// `number` for the volume, a `select` for the transition, an `image` of the board and an `event`
/// for each message shown; all follow the availability topic. Devices announced before but no
/// longer configured are removed (empty retained configs), so a display taken out of the
/// configuration disappears from Home Assistant.
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
        var min: Int?
        var step: Int?
        var unitOfMeasurement: String?
        var mode: String?
        var payloadPress: String?
        var options: [String]?
        var imageTopic: String?
        var contentType: String?
        var eventTypes: [String]?
        var icon: String?
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

    /// Each entity's component and object id, in the order they are announced.
    static let entities: [(component: String, object: String)] = [
        ("text", "message"), ("sensor", "board"), ("sensor", "outcome"), ("button", "clear"), ("switch", "pause"),
        ("switch", "mute"), ("number", "volume"), ("select", "transition"), ("image", "board_picture"), ("event", "displayed"),
    ]

    func configTopics(for device: String) -> [String] {
        Self.entities.map { "homeassistant/\($0.component)/vestawidget_\(device)/\($0.object)/config" }
    }

    func configs(for device: String) -> [Entity] {
        let base = "\(settings.baseTopic)/\(device)"
        let identity = Device(identifiers: ["vestawidget_\(device)"], name: "VestaWidget \(device)", manufacturer: "VestaWidget", model: "flapd")
        func entity(_ name: String, _ object: String) -> Entity {
            Entity(name: name, uniqueId: "vestawidget_\(device)_\(object)", availabilityTopic: "\(base)/availability", device: identity)
        }
        var text = entity("Message", "message")
        text.commandTopic = "\(base)/ha/set"
        text.max = 255
        text.mode = "text"
        var board = entity("Board", "board")
        board.stateTopic = "\(base)/state"
        board.valueTemplate = "{{ value_json.text | join(' ') | trim }}"
        board.jsonAttributesTopic = "\(base)/state"
        var outcome = entity("Last message", "outcome")
        outcome.stateTopic = "\(base)/ha/outcome"
        outcome.valueTemplate = "{{ value_json.status }}"
        outcome.jsonAttributesTopic = "\(base)/ha/outcome"
        var clear = entity("Clear board", "clear")
        clear.commandTopic = "\(base)/ha/clear"
        clear.payloadPress = "PRESS"
        clear.icon = "mdi:eraser"
        func toggle(_ name: String, _ object: String, _ field: String, icon: String) -> Entity {
            var toggle = entity(name, object)
            toggle.commandTopic = "\(base)/ha/\(object)/set"
            toggle.stateTopic = "\(base)/ha/controls"
            toggle.valueTemplate = "{{ 'ON' if value_json.\(field) else 'OFF' }}"
            toggle.icon = icon
            return toggle
        }
        var volume = entity("Volume", "volume")
        volume.commandTopic = "\(base)/ha/volume/set"
        volume.stateTopic = "\(base)/ha/controls"
        volume.valueTemplate = "{{ value_json.volume }}"
        (volume.min, volume.max, volume.step, volume.unitOfMeasurement, volume.mode) = (0, 100, 5, "%", "slider")
        volume.icon = "mdi:volume-high"
        var transition = entity("Transition", "transition")
        transition.commandTopic = "\(base)/ha/transition/set"
        transition.stateTopic = "\(base)/ha/controls"
        transition.valueTemplate = "{{ value_json.transition }}"
        transition.options = TransitionStrategy.allCases.map(\.rawValue)
        transition.icon = "mdi:transition"
        var picture = entity("Board picture", "board_picture")
        picture.imageTopic = "\(base)/board.png"
        picture.contentType = "image/png"
        var displayed = entity("Message shown", "displayed")
        displayed.stateTopic = "\(base)/ha/displayed"
        displayed.eventTypes = ["displayed"]
        displayed.icon = "mdi:message-text"
        return [text, board, outcome, clear, toggle("Quiet now", "pause", "paused", icon: "mdi:pause-circle"),
                toggle("Mute", "mute", "muted", icon: "mdi:volume-off"), volume, transition, picture, displayed]
    }

    func announce(_ client: MQTTClient) {
        let device = settings.deviceID
        for (topic, body) in zip(configTopics(for: device), configs(for: device)) {
            if let data = try? Self.encoder.encode(body) { try? client.publish(topic, Array(data), qos: 1, retain: true) }
        }
        // Forget devices announced earlier from this state directory under another id.
        let earlier = ((try? String(contentsOfFile: announcedFile, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        for old in earlier where old != device {
            for topic in configTopics(for: old) { try? client.publish(topic, [], qos: 1, retain: true) }
            for leaf in ["availability", "ha/outcome", "ha/controls", "board.png"] {
                try? client.publish("\(settings.baseTopic)/\(old)/\(leaf)", [], qos: 1, retain: true)
            }
        }
        try? (device + "\n").write(toFile: announcedFile, atomically: true, encoding: .utf8)
    }
}

import FlapCore
import FlapMQTTClient
import FlapPresence
import FlapStorage
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
    /// The panels' ids, the first the one the device's own entities show. With several, each is
    /// a device of its own too (its board and its picture), linked to the display's.
    let panels: [String]
    /// A Wematch kiosk: its room's member count and synced pairs as sensors (never a heart rate).
    let room: Bool

    private var announcedFile: String { stateDirectory + "/mqtt-announced-devices" }
    /// The largest list of what was announced read back: a line a device id or person.
    static let largestAnnouncedFile = 256 * 1024

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
        var viaDevice: String?
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
        ("switch", "mute"), ("number", "volume"), ("select", "transition"), ("image", "board_picture"), ("event", "displayed")
    ]

    func configTopics(for device: String) -> [String] {
        Self.entities.map { "homeassistant/\($0.component)/vestawidget_\(device)/\($0.object)/config" }
    }

    /// The room's sensors, on a kiosk.
    func roomConfigTopics(for device: String) -> [String] {
        ["homeassistant/sensor/vestawidget_\(device)/room_members/config", "homeassistant/sensor/vestawidget_\(device)/room_synced/config"]
    }

    func roomConfigs(for device: String) -> [Entity] {
        let topics = DeviceTopics(base: settings.baseTopic, device: device)
        let identity = Device(identifiers: ["vestawidget_\(device)"], name: "VestaWidget \(device)", manufacturer: "VestaWidget", model: "flapd")
        var members = Entity(
            name: "Room members", uniqueId: "vestawidget_\(device)_room_members", availabilityTopic: topics.name(.availability), device: identity)
        members.stateTopic = topics.name(.homeAssistantRoom)
        members.valueTemplate = "{{ value_json.members }}"
        members.jsonAttributesTopic = topics.name(.homeAssistantRoom)
        members.icon = "mdi:account-group"
        var synced = Entity(
            name: "Synced pairs", uniqueId: "vestawidget_\(device)_room_synced", availabilityTopic: topics.name(.availability), device: identity)
        synced.stateTopic = topics.name(.homeAssistantRoom)
        synced.valueTemplate = "{{ value_json.synced_pairs }}"
        synced.icon = "mdi:heart-multiple"
        return [members, synced]
    }

    /// A person's presence sensor's config topic (`owner` or a member's id).
    func presenceConfigTopic(for person: String, device: String? = nil) -> String {
        "homeassistant/sensor/vestawidget_\(device ?? settings.deviceID)/presence_\(person)/config"
    }

    /// A person's presence as a sensor of the display's device: `here`, `away` or `writing`,
    /// their name, sender and last sighting as attributes.
    func presenceConfig(for person: PersonPresence) -> (topic: String, config: Entity) {
        let device = settings.deviceID
        let topics = DeviceTopics(base: settings.baseTopic, device: device)
        var sensor = Entity(
            name: "\(person.name) at the board", uniqueId: "vestawidget_\(device)_presence_\(person.id)",
            availabilityTopic: topics.name(.availability),
            device: Device(identifiers: ["vestawidget_\(device)"], name: "VestaWidget \(device)", manufacturer: "VestaWidget", model: "flapd"))
        sensor.stateTopic = topics.name(.personPresence(person.id))
        sensor.valueTemplate = "{{ value_json.state }}"
        sensor.jsonAttributesTopic = topics.name(.personPresence(person.id))
        sensor.icon = "mdi:account-clock"
        return (presenceConfigTopic(for: person.id), sensor)
    }

    /// A panel's own device's configs, when there are several panels.
    func panelConfigTopics(for device: String, panel: String) -> [String] {
        [
            "homeassistant/sensor/vestawidget_\(device)_\(panel)/board/config",
            "homeassistant/image/vestawidget_\(device)_\(panel)/board_picture/config"
        ]
    }

    func panelConfigs(for device: String, panel: String) -> [Entity] {
        let topics = DeviceTopics(base: settings.baseTopic, device: device)
        let identity = Device(
            identifiers: ["vestawidget_\(device)_\(panel)"], name: "VestaWidget \(device) \(panel)", manufacturer: "VestaWidget",
            model: "flapd panel", viaDevice: "vestawidget_\(device)")
        var board = Entity(
            name: "Board", uniqueId: "vestawidget_\(device)_\(panel)_board", availabilityTopic: topics.name(.availability), device: identity)
        board.stateTopic = topics.name(.panelState(panel))
        board.valueTemplate = "{{ value_json.text | join(' ') | trim }}"
        board.jsonAttributesTopic = topics.name(.panelState(panel))
        var picture = Entity(
            name: "Board picture", uniqueId: "vestawidget_\(device)_\(panel)_board_picture", availabilityTopic: topics.name(.availability),
            device: identity)
        picture.imageTopic = topics.name(.panelPicture(panel))
        picture.contentType = "image/png"
        return [board, picture]
    }

    func configs(for device: String) -> [Entity] {
        let topics = DeviceTopics(base: settings.baseTopic, device: device)
        let identity = Device(identifiers: ["vestawidget_\(device)"], name: "VestaWidget \(device)", manufacturer: "VestaWidget", model: "flapd")
        func entity(_ name: String, _ object: String) -> Entity {
            Entity(name: name, uniqueId: "vestawidget_\(device)_\(object)", availabilityTopic: topics.name(.availability), device: identity)
        }
        var text = entity("Message", "message")
        text.commandTopic = HomeAssistantTextTopic().filters(topics)[0]
        text.max = 255
        text.mode = "text"
        var board = entity("Board", "board")
        board.stateTopic = topics.name(.state)
        board.valueTemplate = "{{ value_json.text | join(' ') | trim }}"
        board.jsonAttributesTopic = topics.name(.state)
        var outcome = entity("Last message", "outcome")
        outcome.stateTopic = topics.name(.homeAssistantOutcome)
        outcome.valueTemplate = "{{ value_json.status }}"
        outcome.jsonAttributesTopic = topics.name(.homeAssistantOutcome)
        var clear = entity("Clear board", "clear")
        clear.commandTopic = topics.name(.clear)
        clear.payloadPress = "PRESS"
        clear.icon = "mdi:eraser"
        func toggle(_ name: String, _ object: String, _ control: HomeAssistantControl, _ field: String, icon: String) -> Entity {
            var toggle = entity(name, object)
            toggle.commandTopic = topics.name(control)
            toggle.stateTopic = topics.name(.homeAssistantControls)
            toggle.valueTemplate = "{{ 'ON' if value_json.\(field) else 'OFF' }}"
            toggle.icon = icon
            return toggle
        }
        var volume = entity("Volume", "volume")
        volume.commandTopic = topics.name(.volume)
        volume.stateTopic = topics.name(.homeAssistantControls)
        volume.valueTemplate = "{{ value_json.volume }}"
        (volume.min, volume.max, volume.step, volume.unitOfMeasurement, volume.mode) = (0, 100, 5, "%", "slider")
        volume.icon = "mdi:volume-high"
        var transition = entity("Transition", "transition")
        transition.commandTopic = topics.name(.transition)
        transition.stateTopic = topics.name(.homeAssistantControls)
        transition.valueTemplate = "{{ value_json.transition }}"
        transition.options = TransitionStrategy.allCases.map(\.rawValue)
        transition.icon = "mdi:transition"
        var picture = entity("Board picture", "board_picture")
        picture.imageTopic = topics.name(.picture)
        picture.contentType = "image/png"
        var displayed = entity("Message shown", "displayed")
        displayed.stateTopic = topics.name(.homeAssistantDisplayed)
        displayed.eventTypes = ["displayed"]
        displayed.icon = "mdi:message-text"
        return [
            text, board, outcome, clear, toggle("Quiet now", "pause", .pause, "paused", icon: "mdi:pause-circle"),
            toggle("Mute", "mute", .mute, "muted", icon: "mdi:volume-off"), volume, transition, picture, displayed
        ]
    }

    func announce(_ client: MQTTClient) {
        let device = settings.deviceID
        let ownPanels = panels.count > 1 ? panels : []
        var configs = Array(zip(configTopics(for: device), configs(for: device)))
        for panel in ownPanels { configs += zip(panelConfigTopics(for: device, panel: panel), panelConfigs(for: device, panel: panel)) }
        if room { configs += zip(roomConfigTopics(for: device), roomConfigs(for: device)) }
        for (topic, body) in configs {
            if let data = try? Self.encoder.encode(body) { try? client.publish(topic, Array(data), qos: 1, retain: true) }
        }
        // Forget what was announced earlier from this state directory and is not now: another
        // device id, or a panel taken out. Each line: the device id, a tab, its panels.
        let earlier = SmallFile.lines(announcedFile, largest: Self.largestAnnouncedFile).map { line in
            let parts = line.split(separator: "\t", omittingEmptySubsequences: false)
            return (device: String(parts[0]), panels: parts.count > 1 ? parts[1].split(separator: ",").map(String.init) : [])
        }
        for old in earlier {
            let gone = old.device == device ? old.panels.filter { !ownPanels.contains($0) } : old.panels
            for panel in gone {
                for topic in panelConfigTopics(for: old.device, panel: panel) { try? client.publish(topic, [], qos: 1, retain: true) }
                let topics = DeviceTopics(base: settings.baseTopic, device: old.device)
                for topic in [OutgoingTopic.panelState(panel), .panelPicture(panel)] {
                    try? client.publish(topics.name(topic), [], qos: 1, retain: true)
                }
            }
            if old.device == device, !room {
                for topic in roomConfigTopics(for: device) { try? client.publish(topic, [], qos: 1, retain: true) }
            }
            guard old.device != device else { continue }
            for topic in configTopics(for: old.device) + roomConfigTopics(for: old.device) { try? client.publish(topic, [], qos: 1, retain: true) }
            let topics = DeviceTopics(base: settings.baseTopic, device: old.device)
            for topic in [OutgoingTopic.availability, .homeAssistantOutcome, .homeAssistantControls, .homeAssistantRoom, .picture] {
                try? client.publish(topics.name(topic), [], qos: 1, retain: true)
            }
        }
        try? (device + "\t" + ownPanels.joined(separator: ",") + "\n").write(toFile: announcedFile, atomically: true, encoding: .utf8)
    }
}

import FlapMessaging

/// A topic flapd takes messages or commands from, parsed once from the topic's name.
enum IncomingTopic: Sendable, Equatable {
    /// `<device>/message`: a message as JSON.
    case message
    /// `<device>/command`: plain text, the slot of sender `mqtt-command`.
    case command
    /// `<device>/slot/<sender>`: retained JSON, that sender's message (empty: cleared).
    case slot(sender: String)
    /// `<device>/ha/set`: Home Assistant's text entity (text, or an automation's JSON).
    case homeAssistantText
    /// One of Home Assistant's button, switches, number and select.
    case control(HomeAssistantControl)
    /// `<base>/group/<group>/message`: a message to every display in the group.
    case group(String)

    /// The source its messages carry in receipts and metrics.
    var source: MessageSource {
        switch self {
        case .command: .mqttCommand
        case .homeAssistantText: .homeAssistant
        case .message, .slot, .control, .group: .mqtt
        }
    }
}

/// Home Assistant's controls, by the leaf of their command topic.
enum HomeAssistantControl: String, Sendable, CaseIterable {
    case clear = "ha/clear"
    case pause = "ha/pause/set"
    case mute = "ha/mute/set"
    case volume = "ha/volume/set"
    case transition = "ha/transition/set"
}

/// A topic flapd publishes.
enum OutgoingTopic: Sendable, Hashable {
    /// Retained `online`/`offline`, and the will.
    case availability
    /// Every message's outcome.
    case receipt
    /// The first panel's board, retained, and with several panels each one's.
    case state
    case panelState(String)
    /// The board's picture (Home Assistant's image entity), retained.
    case picture
    case panelPicture(String)
    /// What became of Home Assistant's latest text, retained.
    case homeAssistantOutcome
    /// The controls' state, retained.
    case homeAssistantControls
    /// The kiosk's room for Home Assistant's sensors, retained.
    case homeAssistantRoom
    /// A message came to rest on a panel (Home Assistant's event entity).
    case homeAssistantDisplayed
    /// The household's presence, retained.
    case presence
    /// One person's presence (`owner` or a member's id), retained.
    case personPresence(String)

    var leaf: String {
        switch self {
        case .availability: "availability"
        case .receipt: "receipt"
        case .state: "state"
        case .panelState(let panel): "state/\(panel)"
        case .picture: "board.png"
        case .panelPicture(let panel): "board/\(panel).png"
        case .homeAssistantOutcome: "ha/outcome"
        case .homeAssistantControls: "ha/controls"
        case .homeAssistantRoom: "ha/room"
        case .homeAssistantDisplayed: "ha/displayed"
        case .presence: "presence"
        case .personPresence(let id): "presence/\(id)"
        }
    }
}

/// flapd's topics for one device: `<base>/<device>/…` and `<base>/group/<group>/message`. The one
/// place a topic's name is written; the bridge, its handlers and Home Assistant's discovery ask
/// it for names and parse what arrives with it.
struct DeviceTopics: Sendable {
    let base: String
    let device: String
    let groups: [String]

    init(_ settings: MQTTSettings) {
        self.init(base: settings.baseTopic, device: settings.deviceID, groups: settings.groups)
    }

    init(base: String, device: String, groups: [String] = []) {
        self.base = base
        self.device = device
        self.groups = groups
    }

    /// `<base>/<device>/` before every topic of this device's.
    var prefix: String { "\(base)/\(device)/" }

    /// The name of `topic`.
    func name(_ topic: OutgoingTopic) -> String { prefix + topic.leaf }

    /// The name of a command topic of Home Assistant's control.
    func name(_ control: HomeAssistantControl) -> String { prefix + control.rawValue }

    /// `<device>/ha/set`, Home Assistant's text entity's command topic.
    var homeAssistantText: String { prefix + "ha/set" }

    /// What flapd subscribes to.
    var subscriptions: [String] {
        [prefix + "message", prefix + "command", prefix + "slot/+", homeAssistantText] + HomeAssistantControl.allCases.map(name)
            + groups.map { "\(base)/group/\($0)/message" }
    }

    /// What a message that arrived on `topic` is; a topic outside these (which the broker
    /// should not send) is taken as a message.
    func parse(_ topic: String) -> IncomingTopic {
        if topic.hasPrefix(prefix) {
            let leaf = String(topic.dropFirst(prefix.count))
            switch leaf {
            case "message": return .message
            case "command": return .command
            case "ha/set": return .homeAssistantText
            default:
                if let control = HomeAssistantControl(rawValue: leaf) { return .control(control) }
                if leaf.hasPrefix("slot/") { return .slot(sender: String(leaf.dropFirst(5))) }
                return .message
            }
        }
        let parts = topic.split(separator: "/", omittingEmptySubsequences: false)
        if parts.count >= 3, parts.last == "message", parts[parts.count - 3] == "group" { return .group(String(parts[parts.count - 2])) }
        return .message
    }
}

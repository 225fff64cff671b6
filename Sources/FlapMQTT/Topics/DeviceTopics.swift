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
        routes = IncomingTopics.kinds.flatMap { kind in kind.filters(self).map { (filter: $0, kind: kind) } }
    }

    /// Every filter with its kind, worked out once: each message arriving is matched against them.
    private var routes: [(filter: String, kind: any IncomingTopicKind)] = []

    /// `<base>/<device>/` before every topic of this device's.
    var prefix: String { "\(base)/\(device)/" }

    /// The name of `topic`.
    func name(_ topic: OutgoingTopic) -> String { prefix + topic.leaf }

    /// The name of a command topic of Home Assistant's control.
    func name(_ control: HomeAssistantControl) -> String { prefix + control.rawValue }

    /// What flapd subscribes to: every kind of topic's filters, in the kinds' order.
    var subscriptions: [String] { routes.map(\.filter) }

    /// The kind of topic `topic` is; a topic outside them all (which the broker should not
    /// send) is taken as a message.
    func kind(of topic: String) -> any IncomingTopicKind {
        routes.first { IncomingTopics.matches(topic, filter: $0.filter) }?.kind ?? MessageTopic()
    }
}

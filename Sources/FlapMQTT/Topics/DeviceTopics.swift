/// Home Assistant's controls, by the leaf of their command topic.
enum HomeAssistantControl: String, Sendable, CaseIterable {
    case clear = "ha/clear"
    case pause = "ha/pause/set"
    case mute = "ha/mute/set"
    case volume = "ha/volume/set"
    case transition = "ha/transition/set"
}

/// A topic flapd publishes, by its leaf under the device's topic: each a static member, as
/// swift-http-types spells its fields, so a new topic is one line here.
struct OutgoingTopic: Sendable, Hashable {
    /// What follows `<base>/<device>/`.
    let leaf: String

    /// Retained `online`/`offline`, and the will.
    static let availability = OutgoingTopic(leaf: "availability")
    /// Every message's outcome.
    static let receipt = OutgoingTopic(leaf: "receipt")
    /// The first panel's board, retained.
    static let state = OutgoingTopic(leaf: "state")
    /// With several panels, each one's board, retained.
    static func panelState(_ panel: String) -> OutgoingTopic { OutgoingTopic(leaf: "state/\(panel)") }
    /// The board's picture (Home Assistant's image entity), retained.
    static let picture = OutgoingTopic(leaf: "board.png")
    /// With several panels, each one's picture, retained.
    static func panelPicture(_ panel: String) -> OutgoingTopic { OutgoingTopic(leaf: "board/\(panel).png") }
    /// What became of Home Assistant's latest text, retained.
    static let homeAssistantOutcome = OutgoingTopic(leaf: "ha/outcome")
    /// The controls' state, retained.
    static let homeAssistantControls = OutgoingTopic(leaf: "ha/controls")
    /// The kiosk's room for Home Assistant's sensors, retained.
    static let homeAssistantRoom = OutgoingTopic(leaf: "ha/room")
    /// A message came to rest on a panel (Home Assistant's event entity).
    static let homeAssistantDisplayed = OutgoingTopic(leaf: "ha/displayed")
    /// The household's presence, retained.
    static let presence = OutgoingTopic(leaf: "presence")
    /// One person's presence (`owner` or a member's id), retained.
    static func personPresence(_ id: String) -> OutgoingTopic { OutgoingTopic(leaf: "presence/\(id)") }
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

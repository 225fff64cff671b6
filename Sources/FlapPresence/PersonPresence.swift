import FoundationEssentials

/// One person of the household as the others see them: here now, or when they were last seen,
/// and whether they are writing to the board. Never what they write.
public struct PersonPresence: Sendable, Equatable, Encodable {
    /// `owner`, or the member's id: names their retained MQTT topic; not in the API's JSON.
    public var id: String
    /// The name the household knows them by.
    public var name: String
    /// The sender their messages are filed under.
    public var sender: String
    /// A page or app of theirs has the live stream open, or they pinged within five minutes.
    public var here: Bool
    /// When they were last here; nil when never. While they are here, now.
    public var lastSeen: Date?
    /// Typing in the page's composer within the last five seconds.
    public var writing: Bool
    /// On the asker's own entry only: true.
    public var you: Bool?

    enum CodingKeys: String, CodingKey { case name, sender, here, lastSeen, writing, you }

    /// `lastSeen` is null, not left out, for someone never seen.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(sender, forKey: .sender)
        try container.encode(here, forKey: .here)
        try container.encode(lastSeen, forKey: .lastSeen)
        try container.encode(writing, forKey: .writing)
        try container.encodeIfPresent(you, forKey: .you)
    }

    /// `writing`, `here` or `away`: one word for a sensor an automation can follow.
    public var state: String { writing ? "writing" : here ? "here" : "away" }
}

/// A person's own change to their presence (`PATCH /v1/presence`); what is nil is left as it is.
public struct PresenceChange: Sendable, Equatable {
    /// Whether the others may see them at all (here, last seen, writing).
    public var showMe: Bool?
    /// Typing now (true, renewed while they type) or no longer (false: sent, or left the composer).
    public var writing: Bool?
    /// true: a ping (here for five minutes); false: this app or page is leaving.
    public var here: Bool?
    /// With `here: false`, the live stream of the page that is leaving, let go at once.
    public var stream: Int?
    /// The owner's own name as the household sees it (members' names are the owner's to give).
    public var name: String?

    /// A change that sets only the fields given (nil: left as it is).
    public init(showMe: Bool? = nil, writing: Bool? = nil, here: Bool? = nil, stream: Int? = nil, name: String? = nil) {
        self.showMe = showMe
        self.writing = writing
        self.here = here
        self.stream = stream
        self.name = name
    }
}

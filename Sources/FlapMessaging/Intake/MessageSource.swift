/// Where a message came in: stored with it, shown in receipts, and the `source` label of the
/// intake's metrics. A typed value with the sources flapd knows as static members, as
/// swift-http-types spells `HTTPRequest.Method`; stored and sent as its plain text.
public struct MessageSource: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The source's name, as stored and sent.
    public let rawValue: String

    /// The source named `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The source named `rawValue`.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// Reads the plain text it is stored as.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    /// Writes it as its plain text.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// Its name.
    public var description: String { rawValue }

    /// The native API's `POST /v1/messages`.
    public static let nativeAPI = MessageSource("native-api")
    /// The Vestaboard-compatible Local API.
    public static let localAPI = MessageSource("local-api")
    /// MQTT's message, slot and group topics.
    public static let mqtt = MessageSource("mqtt")
    /// MQTT's plain-text command topic.
    public static let mqttCommand = MessageSource("mqtt-command")
    /// Home Assistant's text entity (`ha/set`).
    public static let homeAssistant = MessageSource("home-assistant")
    /// A quick message sent from the page, flapctl or an assistant.
    public static let template = MessageSource("template")
    /// A schedule someone set for a time: ranked as a person's message.
    public static let schedule = MessageSource("schedule")
    /// A background schedule: ambient, under people's messages.
    public static let backgroundSchedule = MessageSource("schedule-background")
    /// A trigger on a content source's values.
    public static let trigger = MessageSource("trigger")
    /// Another board this one mirrors.
    public static let mirror = MessageSource("mirror")
    /// The board's own quiet-hours board.
    public static let quietHours = MessageSource("quiet-hours")
    /// A fuzz target's input.
    public static let fuzz = MessageSource("fuzz")
}

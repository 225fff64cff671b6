import FlapCore
import FlapJSON
import FoundationEssentials

/// A kind of source (`kind = "calendar"` in a `[[source]]`): how what is fetched is read, the
/// values it gives templates, what its definition must say, how often it is fetched. Each kind is
/// one file in this folder, and ``SourceKinds`` the one place that lists them: adding a kind is a
/// new file and a line there (docs/architecture.md, "Adding a source kind").
public protocol SourceKind: Sendable {
    /// Its name in the configuration, the API and messages (`calendar`).
    var name: String { get }
    /// How often a source of this kind is fetched unless its `every` says; nil for a kind that
    /// is pushed to (`POST /v1/sources/{name}`) and never fetched.
    var defaultInterval: Duration? { get }
    /// The settings of a `[[source]]` that belong to this kind (`values`, `fields`, `limit`,
    /// `countdown`, `key_file`), each with what it does, in words that follow "only a NAME source"
    /// when another kind is given it.
    var settings: [String: String] { get }
    /// Whether its values are events that start (`starts_within` triggers).
    var hasEvents: Bool { get }

    /// What is wrong with `definition` that only this kind checks (the rest is checked for all).
    func problems(_ definition: SourceSettings) -> [(key: String, problem: String)]
    /// Reads a fetched body; a body that cannot be read is a problem (the content before it is kept).
    func read(_ body: [UInt8], for definition: SourceSettings) throws(SourceProblem) -> SourceContent
    /// What it gives templates from `content`, nil when there is none usable (never fetched,
    /// stale): every name it can give is there, the missing ones as `definition.placeholder`.
    func values(_ content: SourceContent?, definition: SourceSettings, now: Date, zone: ZoneRules) -> [String: JSONValue]
    /// What is worth telling about `content` (values the document lacks, events left out).
    func warnings(_ content: SourceContent, definition: SourceSettings) -> [String]
    /// The values a trigger may compare (`above`, `below`, `equals`).
    func comparable(_ definition: SourceSettings) -> [String]
}

extension SourceKind {
    /// None of the optional settings, unless the kind says.
    public var settings: [String: String] { [:] }
    /// No events, unless the kind says.
    public var hasEvents: Bool { false }
    /// Whether flapd fetches it (a kind with no interval is pushed to).
    public var isFetched: Bool { defaultInterval != nil }
    /// Nothing more to check, unless the kind says.
    public func problems(_ definition: SourceSettings) -> [(key: String, problem: String)] { [] }
    /// Nothing to warn about, unless the kind says.
    public func warnings(_ content: SourceContent, definition: SourceSettings) -> [String] { [] }
    /// Nothing a trigger may compare, unless the kind says.
    public func comparable(_ definition: SourceSettings) -> [String] { [] }
}

/// The kinds flapd knows, by name: the configuration reads `kind` through it.
public enum SourceKinds {
    /// Every kind flapd knows, in the order messages list them.
    public static let all: [any SourceKind] = [JSONSource(), CalendarSource(), FeedSource(), WebhookSource()]

    /// The kind called `name`, or nil.
    public static func named(_ name: String) -> (any SourceKind)? { all.first { $0.name == name } }

    /// Their names, for the configuration's `kind` and its error.
    public static var names: [String] { all.map(\.name) }
}

extension SourceKind where Self == JSONSource { public static var json: JSONSource { JSONSource() } }
extension SourceKind where Self == CalendarSource { public static var calendar: CalendarSource { CalendarSource() } }
extension SourceKind where Self == FeedSource { public static var feed: FeedSource { FeedSource() } }
extension SourceKind where Self == WebhookSource { public static var webhook: WebhookSource { WebhookSource() } }

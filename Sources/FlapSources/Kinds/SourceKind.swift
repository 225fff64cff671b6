import FlapCore
import FlapJSON
import FoundationEssentials

/// A kind of source (`kind = "calendar"` in a `[[source]]`): the settings of its own it reads
/// from the table, how what is fetched is read into its document, the values it gives
/// templates, how often it is fetched. Each kind is one file in this folder, and ``SourceKinds``
/// the one place that lists them: adding a kind is a new file and a line there
/// (docs/architecture.md, "Adding a source kind").
public protocol SourceKind: Sendable {
    /// Its own settings (a json source's `values`, a calendar's `limit` and `countdown`), as
    /// read from its `[[source]]`; the settings every kind has are ``SourceSettings``'.
    associatedtype Options: Sendable & Equatable = NoSourceOptions
    /// What it reads a fetched body (or a push) into: only this kind looks inside.
    associatedtype Document: Sendable

    /// Its name in the configuration, the API and messages (`calendar`).
    var name: String { get }
    /// How often a source of this kind is fetched unless its `every` says; nil for a kind that
    /// is pushed to (``PushedSourceKind``) and never fetched.
    var defaultInterval: Duration? { get }
    /// The keys ``options(reading:)`` reads, each with what it does in words that follow "only
    /// a NAME source", for the error when another kind is given one.
    var settings: [String: String] { get }
    /// Whether its values are events that start (`starts_within` triggers).
    var hasEvents: Bool { get }
    /// Whether a trigger may compare its values (`above`, `below`, `equals`).
    var comparesValues: Bool { get }

    /// Reads its own keys (those in ``settings``) from its `[[source]]`; a key of the wrong
    /// type is a problem the reader records.
    func options(reading table: inout some SourceTableReading) -> Options
    /// What is wrong with `options`, each problem naming its key.
    func problems(_ options: Options) -> [(key: String, problem: String)]
    /// Reads a fetched body; a body that cannot be read is a problem (the content before it is kept).
    func read(_ body: [UInt8], options: Options) throws(SourceProblem) -> Document
    /// What it gives templates from `document`, nil when there is none usable (never fetched,
    /// stale): every name it can give is there, the missing ones as `placeholder`.
    func values(_ document: Document?, options: Options, placeholder: String, now: Date, zone: ZoneRules) -> [String: JSONValue]
    /// What is worth telling about `document` (values it lacks, events left out).
    func warnings(_ document: Document, options: Options) -> [String]
    /// The values a trigger may compare.
    func comparable(_ options: Options) -> [String]
}

/// The options of a kind with no settings of its own.
public struct NoSourceOptions: Sendable, Equatable {
    /// No settings.
    public init() {}
}

extension SourceKind {
    /// None of the optional settings, unless the kind says.
    public var settings: [String: String] { [:] }
    /// No events, unless the kind says.
    public var hasEvents: Bool { false }
    /// Nothing to compare, unless the kind says.
    public var comparesValues: Bool { false }
    /// Whether flapd fetches it (a kind with no interval is pushed to).
    public var isFetched: Bool { defaultInterval != nil }
    /// Nothing more to check, unless the kind says.
    public func problems(_ options: Options) -> [(key: String, problem: String)] { [] }
    /// Nothing to warn about, unless the kind says.
    public func warnings(_ document: Document, options: Options) -> [String] { [] }
    /// Nothing a trigger may compare, unless the kind says.
    public func comparable(_ options: Options) -> [String] { [] }
}

extension SourceKind where Options == NoSourceOptions {
    /// Nothing of its own to read.
    public func options(reading table: inout some SourceTableReading) -> Options { NoSourceOptions() }
}

/// The kinds flapd knows, by name: the configuration reads `kind` through it.
public enum SourceKinds {
    /// Every kind flapd knows, in the order messages list them.
    public static let all: [any SourceKind] = [JSONSource(), CalendarSource(), FeedSource(), WebhookSource()]

    /// The kind called `name` among `kinds`, or nil.
    public static func named(_ name: String, in kinds: [any SourceKind] = all) -> (any SourceKind)? { kinds.first { $0.name == name } }

    /// Their names, for the configuration's `kind` and its error.
    public static var names: [String] { all.map(\.name) }

    /// Whose setting `key` is among `kinds`, in words: "only a calendar or feed source keeps
    /// so many events or headlines"; nil when no kind reads it.
    public static func owner(of key: String, in kinds: [any SourceKind] = all) -> String? {
        let owners = kinds.filter { $0.settings[key] != nil }
        guard let first = owners.first, let words = first.settings[key] else { return nil }
        return "only a \(owners.map(\.name).joined(separator: " or ")) source \(words)"
    }

    /// The names of the kinds among `kinds` that have `feature`, joined with "or" (for errors).
    static func names(having feature: (any SourceKind) -> Bool, in kinds: [any SourceKind] = all) -> String {
        kinds.filter(feature).map(\.name).joined(separator: " or ")
    }
}

extension SourceKind where Self == JSONSource {
    /// Values read from a JSON document by their pointers (`kind = "json"`).
    public static var json: JSONSource { JSONSource() }
}

extension SourceKind where Self == CalendarSource {
    /// Events read from an iCalendar file (`kind = "calendar"`).
    public static var calendar: CalendarSource { CalendarSource() }
}

extension SourceKind where Self == FeedSource {
    /// Headlines read from an RSS or Atom feed (`kind = "feed"`).
    public static var feed: FeedSource { FeedSource() }
}

extension SourceKind where Self == WebhookSource {
    /// Values pushed in over the API (`kind = "webhook"`).
    public static var webhook: WebhookSource { WebhookSource() }
}

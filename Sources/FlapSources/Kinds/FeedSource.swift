import FlapCore
import FlapJSON
import FoundationEssentials

/// An RSS or Atom feed's headlines: `title`, `headline` (the first), `headlines` (a list of
/// `title`), `count`.
public struct FeedSource: SourceKind {
    /// A feed's own settings.
    public struct Options: Sendable, Equatable {
        /// How many headlines it gives.
        public var limit: Int

        /// Options keeping the newest `limit` headlines.
        public init(limit: Int = SourceSettings.defaultLimit) { self.limit = limit }
    }

    /// A feed source kind (it holds nothing: the settings say which feed).
    public init() {}
    /// `kind = "feed"`.
    public var name: String { "feed" }
    /// Every 30 minutes.
    public var defaultInterval: Duration? { .seconds(1800) }
    /// `limit`: how many headlines.
    public var settings: [String: String] { ["limit": "keeps a number of events or headlines"] }

    /// Reads `limit`.
    public func options(reading table: inout some SourceTableReading) -> Options {
        Options(limit: table.int("limit") ?? SourceSettings.defaultLimit)
    }

    /// Its limit is 1 to 50.
    public func problems(_ options: Options) -> [(key: String, problem: String)] {
        SourceSettings.limitProblems(options.limit)
    }

    /// Reads the body as RSS or Atom.
    public func read(_ body: [UInt8], options: Options) throws(SourceProblem) -> Feed {
        try Feed(bytes: body)
    }

    /// The feed's title and its first `limit` headlines.
    public func values(_ feed: Feed?, options: Options, placeholder: String, now: Date, zone: ZoneRules) -> [String: JSONValue] {
        let placeholder = JSONValue.string(placeholder)
        guard let feed else {
            return ["title": placeholder, "headline": placeholder, "headlines": .array([]), "count": placeholder]
        }
        let items = Array(feed.items.prefix(options.limit))
        return [
            "title": .string(feed.title), "headline": items.first.map { .string($0.title) } ?? placeholder,
            "headlines": .array(items.map { .object(["title": .string($0.title)]) }), "count": .number(Double(items.count))
        ]
    }
}

import FlapCore
import FlapJSON
import FoundationEssentials

/// An RSS or Atom feed's headlines: `title`, `headline` (the first), `headlines` (a list of
/// `title`), `count`.
public struct FeedSource: SourceKind {
    /// A feed source kind (it holds nothing: the settings say which feed).
    public init() {}
    /// `kind = "feed"`.
    public var name: String { "feed" }
    /// Every 30 minutes.
    public var defaultInterval: Duration? { .seconds(1800) }

    /// Reads the body as RSS or Atom.
    public func read(_ body: [UInt8], for definition: SourceSettings) throws(SourceProblem) -> SourceContent {
        SourceContent(try Feed(bytes: body))
    }

    /// The feed's title and its first `limit` headlines.
    public func values(_ content: SourceContent?, definition: SourceSettings, now: Date, zone: ZoneRules) -> [String: JSONValue] {
        let placeholder = JSONValue.string(definition.placeholder)
        guard let feed = content?.document as? Feed else {
            return ["title": placeholder, "headline": placeholder, "headlines": .array([]), "count": placeholder]
        }
        let items = Array(feed.items.prefix(definition.limit))
        return ["title": .string(feed.title), "headline": items.first.map { .string($0.title) } ?? placeholder,
                "headlines": .array(items.map { .object(["title": .string($0.title)]) }), "count": .number(Double(items.count))]
    }
}

import FlapEndpoints
import FoundationEssentials

/// One `[[source]]`: where a source's content comes from, how often it is looked at, and which
/// values it gives templates (`{{weather.temperature}}` is the value `temperature` of the
/// source `weather`). These are the settings every kind has; a kind's own are its ``options``.
public struct SourceSettings: Sendable, Equatable {
    /// Its name in templates: lowercase letters, digits and `_`, starting with a letter.
    public var name: String
    /// What it is (json, calendar, feed, webhook: ``SourceKinds``): how it is read and what it gives.
    public let kind: any SourceKind
    /// Its kind's own settings (a `Kind.Options`): only its kind reads them.
    public let options: any Sendable
    /// `http://`, `https://` or `file://` (or a path), for every kind but pushed ones.
    public var url: String?
    /// How often it is fetched.
    public var every: Duration
    /// How old its last good value may be before it is shown as missing.
    public var staleAfter: Duration
    /// How long one fetch may take.
    public var timeout: Duration
    /// Request headers written as they are (no secrets: those come from files).
    public var headers: [String: String]
    /// Request headers whose values are read from files (an API key, `Bearer <token>`), read at
    /// each fetch and never logged or listed.
    public var headerFiles: [String: String]
    /// What a template shows for a value that is missing or stale.
    public var placeholder: String

    /// What templates show for a missing value unless `placeholder` says.
    public static let defaultPlaceholder = "--"
    /// How long a fetch may take when `timeout` is not given.
    public static let defaultTimeout = Duration.seconds(20)
    /// How many events or items a source keeps when its `limit` is not given.
    public static let defaultLimit = 5

    /// A source of `kind` with its `options`; `every` and `staleAfter` default from its kind
    /// (`staleAfter`: three intervals, at least an hour).
    public init<Kind: SourceKind>(
        name: String, kind: Kind, options: Kind.Options, url: String? = nil, every: Duration? = nil,
        staleAfter: Duration? = nil, timeout: Duration = defaultTimeout, headers: [String: String] = [:],
        headerFiles: [String: String] = [:], placeholder: String = Self.defaultPlaceholder
    ) {
        self.name = name
        self.kind = kind
        self.options = options
        self.url = url
        let every = every ?? kind.defaultInterval ?? Self.pushedInterval
        self.every = every
        self.staleAfter = staleAfter ?? max(every * 3, .seconds(3600))
        self.timeout = timeout
        self.headers = headers
        self.headerFiles = headerFiles
        self.placeholder = placeholder
    }

    /// A source of a kind with no settings of its own.
    public init<Kind: SourceKind>(
        name: String, kind: Kind, url: String? = nil, every: Duration? = nil, staleAfter: Duration? = nil,
        timeout: Duration = defaultTimeout, placeholder: String = Self.defaultPlaceholder
    ) where Kind.Options == NoSourceOptions {
        self.init(
            name: name, kind: kind, options: NoSourceOptions(), url: url, every: every, staleAfter: staleAfter, timeout: timeout,
            placeholder: placeholder)
    }

    /// A pushed source's `every`: never fetched, it only sets how soon its values are stale (three times this).
    static let pushedInterval = Duration.seconds(86_400)

    /// The same source, told by every setting (a kind by its name, options by their kind's type).
    public static func == (a: SourceSettings, b: SourceSettings) -> Bool {
        a.name == b.name && a.kind.name == b.kind.name && a.url == b.url && a.every == b.every && a.staleAfter == b.staleAfter
            && a.timeout == b.timeout && a.headers == b.headers && a.headerFiles == b.headerFiles && a.placeholder == b.placeholder
            && a.sameOptions(as: b)
    }

    /// A kind's `limit` must be 1 to 50.
    public static func limitProblems(_ limit: Int) -> [(key: String, problem: String)] {
        (1...50).contains(limit) ? [] : [("limit", "must be 1 to 50, not \(limit)")]
    }

    /// The shortest interval: a source is somebody's server.
    public static let shortestInterval = Duration.seconds(30)

    /// What is wrong with it, each problem naming its key.
    public var problems: [(key: String, problem: String)] {
        var found: [(String, String)] = []
        if !Self.isName(name) {
            found.append(
                (
                    "name",
                    "\(name.debugDescription) must be lowercase letters, digits and _, starting with a letter (it is how templates name it: {{\(name).value}})"
                ))
        }
        if kind.isFetched {
            if let url {
                if SourceLocation(url) == nil {
                    found.append(("url", "\(url.debugDescription) must start with http://, https:// or file://, or be a path starting with /"))
                }
            } else {
                found.append(("url", "a \(kind.name) source needs a url (http://, https:// or file://)"))
            }
            if every < Self.shortestInterval { found.append(("every", "must be at least 30 seconds")) }
        } else if url != nil {
            found.append(("url", "a \(kind.name) source is not fetched; it is pushed to with \(Endpoint.pushToSource.request(name))"))
        }
        found += kindProblems.map { ($0.key, $0.problem) }
        if staleAfter < every { found.append(("stale_after", "must be at least its interval (every)")) }
        if timeout < .seconds(1) || timeout > .seconds(120) { found.append(("timeout", "must be 1 to 120 seconds")) }
        for (name, value) in headers where value.contains(where: \.isNewline) || name.contains(where: { $0 == ":" || $0.isWhitespace }) {
            found.append(("headers.\(name)", "is not a header a request can carry"))
        }
        return found.map { (key: $0.0, problem: $0.1) }
    }

    /// Whether `text` can name a source or a value: lowercase letters, digits and `_`, a letter first, at most 40.
    public static func isName(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, ("a"..."z").contains(first), text.count <= 40 else { return false }
        return text.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
    }
}

/// Where a fetched source is: a URL flapd asks, or a file it reads.
public enum SourceLocation: Sendable, Equatable {
    case http(String)
    case file(String)

    /// `http://` and `https://` URLs are asked, `file://` and absolute paths read; nil for anything else.
    public init?(_ text: String) {
        if text.hasPrefix("http://") || text.hasPrefix("https://") {
            self = .http(text)
        } else if text.hasPrefix("file://") {
            self = .file(String(text.dropFirst(7)))
        } else if text.hasPrefix("/") {
            self = .file(text)
        } else {
            return nil
        }
    }
}

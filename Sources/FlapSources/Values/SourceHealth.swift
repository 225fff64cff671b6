import FoundationEssentials

/// How a source is doing, as `/v1/sources` and `/v1/status` list it.
public struct SourceHealth: Sendable, Encodable, Equatable {
    /// Whether its values can be used.
    public enum State: String, Sendable, Encodable {
        /// Its value is current and the last look at it worked.
        case ok
        /// The last looks failed; its last good value is still used, until it is stale.
        case failing
        /// Its last good value is older than `stale_after`: templates show the placeholder.
        case stale
        /// Nothing has arrived yet.
        case missing
    }

    /// The source's name.
    public var name: String
    /// Its kind's name.
    public var kind: String
    /// Whether its values can be used.
    public var state: State
    /// The host asked (never the whole URL: a query may hold a key), `file`, or `webhook`.
    public var from: String
    /// When its last good content arrived.
    public var updated: Date?
    /// When it was last looked at.
    public var lastAttempt: Date?
    /// When it will be looked at next.
    public var nextAttempt: Date?
    /// Failed looks in a row.
    public var failures: Int
    /// Why the last look failed.
    public var error: String?
    /// Values it names that the content lacks, events left out.
    public var warnings: [String]
}

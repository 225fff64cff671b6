import FoundationEssentials

/// How a source is doing, as `/v1/sources` and `/v1/status` list it.
public struct SourceHealth: Sendable, Encodable, Equatable {
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

    public var name: String
    public var kind: String
    public var state: State
    /// The host asked (never the whole URL: a query may hold a key), `file`, or `webhook`.
    public var from: String
    public var updated: Date?
    public var lastAttempt: Date?
    public var nextAttempt: Date?
    /// Failed looks in a row.
    public var failures: Int
    /// Why the last look failed.
    public var error: String?
    /// Values it names that the content lacks, events left out.
    public var warnings: [String]
}

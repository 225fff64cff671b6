import FoundationEssentials

/// One write of a board to a Vestaboard, as the delivery queue keeps it.
public struct Delivery: Sendable, Equatable, Codable {
    /// Where a write is.
    public enum State: String, Sendable, Codable, CaseIterable {
        /// Waiting for its turn (or for its next attempt).
        case pending
        /// Being written now (found so at start: flapd stopped mid-write).
        case sending
        /// The board took it.
        case sent
        /// Given up: refused for good, or five attempts failed, or cancelled.
        case failed
        /// A newer board for the same panel took its place before it was sent.
        case superseded
        /// The board showed something flapd did not write, and the strategy said not to overwrite it.
        case conflict

        /// Whether it will not change again.
        public var isFinal: Bool { self != .pending && self != .sending }
    }

    /// Its number in the queue, rising.
    public var id: Int64
    /// The panel (or `panel#note`) it is for.
    public var panel: String
    /// The board's character codes, row by row.
    public var rows: [[Int]]
    /// The transition asked for, if any.
    public var transition: BoardTransition?
    /// How it is written (queued, or checked for others' messages first).
    public var strategy: DeliveryStrategy
    /// The message shown, if any (for receipts and status).
    public var messageId: String?
    /// Where it is.
    public var state: State
    /// Attempts made.
    public var attempts: Int
    /// When it was queued.
    public var createdAt: Date
    /// When the next attempt may be made.
    public var notBefore: Date
    /// Why the last attempt failed, if it did.
    public var lastError: String?
    /// When it reached its final state.
    public var finishedAt: Date?
    /// For `optimistic` writes: the board read back showed something else.
    public var conflictSeen: Bool
}

/// How a write goes to a board.
public enum DeliveryStrategy: String, Sendable, Codable, CaseIterable {
    /// In order, after the cloud's 15 s spacing.
    case queued
    /// Without waiting for the spacing (forced past the cloud's limit); still retried.
    case immediate
    /// Reads the board first; if it shows something flapd did not write, refuses or overwrites
    /// as configured (`on_conflict`).
    case conflictAware = "conflict-aware"
    /// Writes, then reads back; a board showing something else is reported as a conflict.
    case optimistic
}

/// What to do when a conflict-aware write finds the board showing someone else's message.
public enum ConflictChoice: String, Sendable, CaseIterable {
    case refuse
    case overwrite
}

import FoundationEssentials

/// What the inbox announces, in commit order, to its one listener (the MQTT bridge publishes
/// these as receipts). A message's outcome always comes before its final receipt.
public enum InboxEvent: Sendable, Equatable {
    /// What became of a submission that asked to be announced (``SubmissionNote``).
    case outcome(id: String, Acceptance, note: SubmissionNote)
    /// A receipt became final: displayed, superseded, expired or rejected.
    case final(Receipt)
}

/// Asks the inbox to announce a submission's outcome, with what the submitter knows of it.
public struct SubmissionNote: Sendable, Equatable {
    /// The transport it came by (`mqtt`, `mqtt-command`, `home-assistant`, …).
    public var source: MessageSource
    /// Layout warnings for the sender (substitutions, cut rows).
    public var warnings: [String]

    /// A note from `source`, with the layout `warnings` its sender should hear.
    public init(source: MessageSource, warnings: [String] = []) {
        self.source = source
        self.warnings = warnings
    }
}

/// What the inbox did with a message.
public enum Acceptance: Sendable, Equatable {
    /// Committed; the receipt may already be final (expired on arrival, older than its slot).
    case accepted(Receipt)
    /// Seen before: nothing changed, and it did not count against the rate limit.
    case duplicate(Receipt)
    /// The sender is blocked or not allowed. Nothing stored.
    case refused(String)
    /// Over the sender's rate; retry after that many seconds. Nothing stored.
    case rateLimited(retryAfter: TimeInterval)
    /// Its idempotency key was used for this same request before: that answer, again. Nothing stored.
    case replayed(IdempotentAnswer)
    /// Its idempotency key was used for another request. Nothing stored.
    case keyReused
}

import FlapCore
import FlapPrimitives
import FlapStorage
import FoundationEssentials

/// A client's `Idempotency-Key` on one request: the same key from the same client within a day
/// answers the first answer again instead of taking a second message.
public struct IdempotencyClaim: Sendable, Equatable {
    /// Who asked (the owner, or a member): keys are one client's own.
    public var client: String
    /// The key as the client sent it.
    public var key: String
    /// What the request said, hashed: the same key with another request is refused.
    public var requestHash: String
    /// The layout warnings the first answer carried.
    public var warnings: [String]

    /// A claim of `key` by `client` for a request whose body is `request` (kept as its hash).
    public init(client: String, key: String, request: some Sequence<UInt8>, warnings: [String] = []) {
        self.client = client
        self.key = key
        var hash = FNV1a()
        hash.add(request)
        requestHash = String(hash.value, radix: 16)
        self.warnings = warnings
    }

    /// How long a key is remembered.
    public static let lifetime: TimeInterval = 24 * 3600
}

/// The first answer to a request that carried an idempotency key, as it is given again.
public struct IdempotentAnswer: Sendable, Equatable, Codable {
    /// The message's id.
    public var id: String
    /// Its status as the first answer gave it.
    public var status: ReceiptStatus
    /// The layout warnings the first answer carried.
    public var warnings: [String]
    /// The first answer said the message was a duplicate of one already taken.
    public var duplicate: Bool
}

/// The keys in the inbox's database, written in the transaction that takes their message, so a
/// key is remembered exactly when its message is.
enum IdempotencyRecords {
    /// What `claim` was answered before, while it is remembered; nil when it is new.
    static func prior(_ db: SQLiteConnection, _ claim: IdempotencyClaim, now: Date) throws -> (requestHash: String, answer: IdempotentAnswer)? {
        guard
            let row = try SQLiteRow.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT requestHash, answer FROM idempotency WHERE client = ? AND key = ? AND at > ?
                        """), arguments: [claim.client, claim.key, now.timeIntervalSince1970 - IdempotencyClaim.lifetime])
        else { return nil }
        return (try row["requestHash"], try JSONDecoder().decode(IdempotentAnswer.self, from: row["answer"] as Data))
    }

    static func remember(_ db: SQLiteConnection, _ claim: IdempotencyClaim, answer: IdempotentAnswer, now: Date) throws {
        try db.cachedStatement(
            sql: """
                INSERT OR REPLACE INTO idempotency (client, key, requestHash, answer, at) VALUES (?, ?, ?, ?, ?)
                """
        ).execute(arguments: [claim.client, claim.key, claim.requestHash, try JSONEncoder().encode(answer), now.timeIntervalSince1970])
    }

    /// Forgets keys older than their lifetime.
    static func prune(_ db: SQLiteConnection, now: Date) throws {
        try db.execute(sql: "DELETE FROM idempotency WHERE at <= ?", arguments: [now.timeIntervalSince1970 - IdempotencyClaim.lifetime])
    }
}

import FlapStorage
import FoundationEssentials

/// Token buckets, one per sender, kept in the inbox's database so a restart does not refill
/// anyone's allowance: `perHour` messages at once, refilled at `perHour` an hour. A bucket is
/// taken from in the same transaction as the message it admits.
enum RateBuckets {
    /// Takes a token for `sender` at `now`; nil if allowed, else the seconds until the next token.
    /// The bucket's new level is written through `write` (at once, or later in the transaction).
    static func take(
        _ db: SQLiteConnection, sender: String, now: Date, perHour: Int,
        write: (String, SQLiteArguments) throws -> Void
    ) throws -> TimeInterval? {
        guard perHour > 0 else { return nil }
        let capacity = Double(perHour)
        let rate = capacity / 3600
        var tokens = capacity
        if let row = try SQLiteRow.fetchOne(db.cachedStatement(sql: "SELECT tokens, at FROM rateBucket WHERE sender = ?"), arguments: [sender]) {
            let at: Double = try row["at"]
            // A clock that went back (a Pi without a battery-backed clock) refills nothing.
            tokens = min(capacity, (try row["tokens"] as Double) + max(0, now.timeIntervalSince1970 - at) * rate)
        }
        guard tokens >= 1 else { return (1 - tokens) / rate }
        try write("INSERT OR REPLACE INTO rateBucket (sender, tokens, at) VALUES (?, ?, ?)", [sender, tokens - 1, now.timeIntervalSince1970])
        return nil
    }

    /// Forgets buckets that are full again by `now`, so the table does not grow without bound.
    static func prune(_ db: SQLiteConnection, now: Date, perHour: Int) throws {
        let capacity = Double(max(perHour, 1))
        try db.execute(
            sql: "DELETE FROM rateBucket WHERE tokens + (? - at) * ? >= ?",
            arguments: [now.timeIntervalSince1970, capacity / 3600, capacity])
    }
}

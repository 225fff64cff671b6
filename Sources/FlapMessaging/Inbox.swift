import FlapCore
import Foundation
import GRDB

/// The messages waiting to be shown, in SQLite (WAL, synchronous FULL): one slot per sender,
/// a receipt for every accepted message. Every change is committed before the call returns, so
/// a caller that acknowledges after `accept` never acknowledges what a power cut could lose.
public actor Inbox {
    private let database: DatabasePool
    private var rules: SenderRules
    private var limiter: RateLimiter
    private var seq: Int64
    private let (changeStream, changeContinuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    private let (receiptStream, receiptContinuation) = AsyncStream.makeStream(of: Receipt.self, bufferingPolicy: .bufferingNewest(10_000))

    /// Opens (or creates) the inbox at `path`.
    public init(path: String, rules: SenderRules = SenderRules()) throws {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            // FULL: a commit survives power loss, not only a crash of flapd.
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        database = try DatabasePool(path: path, configuration: configuration)
        try InboxSchema.migrator.migrate(database)
        self.rules = rules
        limiter = RateLimiter(perHour: rules.ratePerHour)
        seq = try database.read { db in try Int64.fetchOne(db, sql: "SELECT MAX(seq) FROM message") ?? 0 }
    }

    /// Signals after every change to slots (acceptance, expiry, deletion).
    public nonisolated var changes: AsyncStream<Void> { changeStream }

    /// Every receipt as it becomes final (displayed, superseded, expired, rejected), after commit.
    /// One reader (the MQTT bridge publishes them).
    public nonisolated var finalReceipts: AsyncStream<Receipt> { receiptStream }

    private func announce(_ ids: [String]) async {
        for id in ids {
            if let receipt = try? await receipt(id: id), receipt.status.isFinal { receiptContinuation.yield(receipt) }
        }
    }

    /// Replaces the sender rules; existing buckets keep their tokens when the rate stays.
    public func update(rules: SenderRules) {
        if rules.ratePerHour != self.rules.ratePerHour { limiter = RateLimiter(perHour: rules.ratePerHour) }
        self.rules = rules
    }

    /// Takes `message` into the inbox at `now`. Committed when this returns.
    public func accept(_ message: Message, now: Date) async throws -> Acceptance {
        if let existing = try await receipt(id: message.id) { return .duplicate(existing) }
        if let refusal = rules.refusal(for: message.sender.id) { return .refused(refusal) }
        if let wait = limiter.take(message.sender.id, now: now) { return .rateLimited(retryAfter: wait) }
        seq += 1
        let seq = self.seq
        let body = try JSONEncoder().encode(message)
        let (receipt, isNew, finalized) = try await database.write { db -> (Receipt, Bool, [String]) in
            // The actor is reentrant at `await`: a copy accepted meanwhile is a duplicate.
            if let existing = try Self.fetchReceipt(db, id: message.id) { return (existing, false, []) }
            var finalized: [String] = []
            try db.execute(
                sql: """
                    INSERT INTO message (id, sender, senderName, source, body, createdAt, expiresAt, receivedAt, seq, status)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'accepted')
                    """,
                arguments: [message.id, message.sender.id, message.sender.name, message.source, body,
                            message.createdAt.timeIntervalSince1970, message.expiresAt.timeIntervalSince1970,
                            now.timeIntervalSince1970, seq])
            if message.expiresAt <= now {
                try Self.finish(db, id: message.id, .expired, reason: "expired before it arrived", at: now)
                finalized.append(message.id)
            } else if let current = try Row.fetchOne(db, sql: """
                SELECT m.id, m.createdAt, m.seq FROM slot s JOIN message m ON m.id = s.messageId WHERE s.sender = ?
                """, arguments: [message.sender.id]) {
                let currentCreated: Double = current["createdAt"]
                if message.createdAt.timeIntervalSince1970 < currentCreated {
                    // A late older message never takes a slot back from a newer one.
                    try Self.finish(db, id: message.id, .superseded, reason: "older than \(current["id"] as String) in the same slot", at: now)
                    finalized.append(message.id)
                } else {
                    if try Self.finish(db, id: current["id"], .superseded, reason: "replaced by \(message.id)", at: now, onlyIfOpen: true) {
                        finalized.append(current["id"])
                    }
                    try db.execute(sql: "UPDATE slot SET messageId = ? WHERE sender = ?", arguments: [message.id, message.sender.id])
                }
            } else {
                try db.execute(sql: "INSERT INTO slot (sender, messageId) VALUES (?, ?)", arguments: [message.sender.id, message.id])
            }
            return (try Self.fetchReceipt(db, id: message.id)!, true, finalized)
        }
        guard isNew else { return .duplicate(receipt) }
        changeContinuation.yield()
        await announce(finalized)
        return .accepted(receipt)
    }

    /// Records that `id` finished showing on `panel` as `board` at `now` (final: displayed),
    /// and what the panel shows, in one transaction.
    public func markDisplayed(_ id: String?, panel: String, board: Board, now: Date) async throws {
        let shown = try await database.write { db -> Bool in
            let changed = try id.map { try Self.finish(db, id: $0, .displayed, reason: nil, at: now, onlyIfOpen: true) } ?? false
            try db.execute(
                sql: "INSERT OR REPLACE INTO panelState (panel, codes, messageId, updatedAt) VALUES (?, ?, ?, ?)",
                arguments: [panel, Data(board.codes.map(\.rawValue)), id, now.timeIntervalSince1970])
            return changed
        }
        if shown, let id { await announce([id]) }
    }

    /// Gives `id` the final status rejected with `reason` (it cannot be shown).
    public func reject(_ id: String, reason: String, now: Date) async throws {
        let changed = try await database.write { db -> Bool in
            let changed = try Self.finish(db, id: id, .rejected, reason: reason, at: now, onlyIfOpen: true)
            try db.execute(sql: "DELETE FROM slot WHERE messageId = ?", arguments: [id])
            return changed
        }
        changeContinuation.yield()
        if changed { await announce([id]) }
    }

    /// Clears slots whose message expired by `now`; returns how many.
    @discardableResult
    public func expire(now: Date) async throws -> Int {
        let (cleared, finalized) = try await database.write { db -> (Int, [String]) in
            let ids = try String.fetchAll(db, sql: """
                SELECT m.id FROM slot s JOIN message m ON m.id = s.messageId WHERE m.expiresAt <= ?
                """, arguments: [now.timeIntervalSince1970])
            var finalized: [String] = []
            for id in ids {
                if try Self.finish(db, id: id, .expired, reason: nil, at: now, onlyIfOpen: true) { finalized.append(id) }
                try db.execute(sql: "DELETE FROM slot WHERE messageId = ?", arguments: [id])
            }
            return (ids.count, finalized)
        }
        limiter.prune(now: now)
        if cleared > 0 { changeContinuation.yield() }
        await announce(finalized)
        return cleared
    }

    /// The soonest time a live slot expires.
    public func nextExpiry() async throws -> Date? {
        try await database.read { db in
            try Double.fetchOne(db, sql: "SELECT MIN(m.expiresAt) FROM slot s JOIN message m ON m.id = s.messageId")
                .map { Date(timeIntervalSince1970: $0) }
        }
    }

    /// Empties `sender`'s slot; its message, if not yet shown, is superseded. False if it was empty.
    public func clearSlot(_ sender: String, now: Date) async throws -> Bool {
        let (cleared, finalized) = try await database.write { db -> (Bool, String?) in
            guard let id = try String.fetchOne(db, sql: "SELECT messageId FROM slot WHERE sender = ?", arguments: [sender]) else { return (false, nil) }
            let changed = try Self.finish(db, id: id, .superseded, reason: "slot cleared", at: now, onlyIfOpen: true)
            try db.execute(sql: "DELETE FROM slot WHERE sender = ?", arguments: [sender])
            return (true, changed ? id : nil)
        }
        if cleared { changeContinuation.yield() }
        if let finalized { await announce([finalized]) }
        return cleared
    }

    /// Every live slot's message, oldest slot first (by createdAt, then arrival).
    public func slots() async throws -> [Message] {
        try await database.read { db in
            try Data.fetchAll(db, sql: """
                SELECT m.body FROM slot s JOIN message m ON m.id = s.messageId ORDER BY m.createdAt, m.seq
                """).map { try JSONDecoder().decode(Message.self, from: $0) }
        }
    }

    /// The receipt of message `id`, or nil if the inbox never accepted it.
    public func receipt(id: String) async throws -> Receipt? {
        try await database.read { db in try Self.fetchReceipt(db, id: id) }
    }

    /// Counts of receipts by status.
    public func counts() async throws -> [ReceiptStatus: Int] {
        try await database.read { db in
            var counts: [ReceiptStatus: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT status, COUNT(*) AS n FROM message GROUP BY status") {
                if let status = ReceiptStatus(rawValue: row["status"]) { counts[status] = row["n"] }
            }
            return counts
        }
    }

    /// What `panel` showed when it last came to rest, and the message it showed.
    public func panelState(_ panel: String) async throws -> (codes: [CharacterCode], messageId: String?)? {
        try await database.read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT codes, messageId FROM panelState WHERE panel = ?", arguments: [panel]) else { return nil }
            let bytes: Data = row["codes"]
            return (bytes.compactMap { CharacterCode(Int($0)) }, row["messageId"])
        }
    }

    /// Deletes final receipts older than `before`, keeping the database from growing forever.
    public func prune(before: Date) async throws {
        try await database.write { db in
            try db.execute(sql: """
                DELETE FROM message WHERE finalAt < ? AND id NOT IN (SELECT messageId FROM slot)
                """, arguments: [before.timeIntervalSince1970])
        }
    }

    /// Gives `id` its final status; true if a row changed.
    @discardableResult
    private static func finish(
        _ db: Database, id: String, _ status: ReceiptStatus, reason: String?, at now: Date, onlyIfOpen: Bool = false
    ) throws -> Bool {
        try db.execute(
            sql: "UPDATE message SET status = ?, reason = ?, finalAt = ? WHERE id = ?" + (onlyIfOpen ? " AND status = 'accepted'" : ""),
            arguments: [status.rawValue, reason, now.timeIntervalSince1970, id])
        return db.changesCount > 0
    }

    private static func fetchReceipt(_ db: Database, id: String) throws -> Receipt? {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM message WHERE id = ?", arguments: [id]) else { return nil }
        return Receipt(
            id: row["id"], sender: row["sender"], status: ReceiptStatus(rawValue: row["status"]) ?? .accepted,
            reason: row["reason"], receivedAt: Date(timeIntervalSince1970: row["receivedAt"]),
            createdAt: Date(timeIntervalSince1970: row["createdAt"]), expiresAt: Date(timeIntervalSince1970: row["expiresAt"]),
            finalAt: (row["finalAt"] as Double?).map(Date.init(timeIntervalSince1970:)))
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
}

import FlapStorage
import FoundationEssentials

/// The writes waiting for (or done with) the boards, in SQLite so they survive restarts and power
/// cuts (synchronous = FULL). Only the newest board of a panel waits: enqueuing supersedes an
/// older pending one.
public final class DeliveryQueue: Sendable {
    private let database: SQLiteDatabase
    /// The database file, as storage faults name it.
    public let path: String
    /// Told of every write that failed for the storage's sake, and of every one that succeeded.
    public let health: StorageHealth

    /// Storage faults are told to `health` and thrown as ``StorageFault``s.
    public init(path: String, health: StorageHealth = StorageHealth()) throws {
        self.path = path
        self.health = health
        do {
            database = try Self.open(path)
        } catch {
            throw StorageFault(error, path: path) ?? error
        }
    }

    /// The connection's page cache.
    static let pageCacheKiB = 256

    private static func open(_ path: String) throws -> SQLiteDatabase {
        // WAL: a board's write waits for two commits (queued, then begun), each one fsync rather
        // than a rollback journal's three or four.
        let database = try SQLiteDatabase(path: path, writeAheadLog: true) { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            // After a checkpoint the WAL is cut back to 1 MiB rather than keeping its largest size.
            try db.execute(sql: "PRAGMA journal_size_limit = \(1 << 20)")
            // SQLite's default page cache, 2 MiB kept full once used, is more than the queue
            // ever reads: each panel's newest writes. What falls out is in the kernel's cache.
            try db.execute(sql: "PRAGMA cache_size = -\(Self.pageCacheKiB)")
        }
        var migrator = SQLiteMigrator()
        migrator.registerMigration("v1") { db in
            // The tables as GRDB's table builder made them for earlier versions.
            try db.execute(
                sql: """
                    CREATE TABLE "delivery" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "panel" TEXT NOT NULL, "rows" TEXT NOT NULL, \
                    "transition" TEXT, "strategy" TEXT NOT NULL, "messageId" TEXT, "state" TEXT NOT NULL, "attempts" INTEGER NOT NULL, \
                    "createdAt" DOUBLE NOT NULL, "notBefore" DOUBLE NOT NULL, "lastError" TEXT, "finishedAt" DOUBLE, \
                    "conflictSeen" BOOLEAN NOT NULL);
                    CREATE INDEX "delivery_panel_state" ON "delivery"("panel", "state");
                    """)
            // When each panel's board was last written, for the cloud's spacing across restarts,
            // and what flapd last wrote there, to tell someone else's message from its own.
            try db.execute(
                sql: """
                    CREATE TABLE "boardWrite" ("panel" TEXT PRIMARY KEY, "rows" TEXT NOT NULL, "at" DOUBLE NOT NULL)
                    """)
        }
        try migrator.migrate(database)
        return database
    }

    /// Runs a write, telling `health` how it went; a storage fault is thrown as a ``StorageFault``.
    private func write<T: Sendable>(_ updates: (SQLiteConnection) throws -> T) throws -> T {
        try health.recording(path: path) { try database.write(updates) }
    }

    /// Adds a write of `rows` to `panel`; a pending write it replaces ends as superseded.
    /// `begun`: it is being sent from now, its first attempt (as ``begin(_:)`` marks one).
    /// Returns the new delivery and the ids superseded.
    @discardableResult
    public func enqueue(
        panel: String, rows: [[Int]], transition: BoardTransition?, strategy: DeliveryStrategy,
        messageId: String?, now: Date, begun: Bool = false
    ) throws -> (delivery: Delivery, superseded: [Int64]) {
        try write { db in
            let older = try Int64.fetchAll(db, sql: "SELECT id FROM delivery WHERE panel = ? AND state = 'pending'", arguments: [panel])
            try db.execute(
                sql: "UPDATE delivery SET state = 'superseded', finishedAt = ? WHERE panel = ? AND state = 'pending'",
                arguments: [now.timeIntervalSince1970, panel])
            try db.execute(
                sql: """
                    INSERT INTO delivery (panel, rows, transition, strategy, messageId, state, attempts, createdAt, notBefore, conflictSeen)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0)
                    """,
                arguments: [
                    panel, BoardRowsText.text(rows), transition.map(Self.json), strategy.rawValue, messageId, begun ? "sending" : "pending",
                    begun ? 1 : 0, now.timeIntervalSince1970, now.timeIntervalSince1970
                ])
            guard let delivery = try Self.fetch(db, id: db.lastInsertedRowID) else {
                throw SQLiteError(code: .error, message: "the delivery just written cannot be read back")
            }
            return (delivery, older)
        }
    }

    /// The next write for `panel`: the newest board not yet final. One found half-sent at start
    /// comes first unless a newer board waits (then it ends superseded, as does any older one
    /// still waiting): only a panel's newest board is ever written.
    public func next(panel: String, now: Date) throws -> (next: Delivery?, superseded: [Int64]) {
        try write { db in
            let open = try SQLiteRow.fetchAll(
                db,
                sql: """
                    SELECT * FROM delivery WHERE panel = ? AND state IN ('sending', 'pending') ORDER BY id DESC
                    """, arguments: [panel]
            ).compactMap { row in try health.readable("delivery", in: path) { try Self.delivery(row) } }
            guard let newest = open.first else { return (nil, []) }
            let stale = open.dropFirst().map(\.id)
            for id in stale {
                try db.execute(
                    sql: "UPDATE delivery SET state = 'superseded', finishedAt = ? WHERE id = ?",
                    arguments: [now.timeIntervalSince1970, id])
            }
            return (newest, stale)
        }
    }

    /// Whether a board newer than `id` waits for the same panel.
    private static func hasNewer(_ db: SQLiteConnection, than id: Int64) throws -> Bool {
        try Bool.fetchOne(
            db,
            sql: """
                SELECT EXISTS (SELECT 1 FROM delivery AS newer JOIN delivery AS this ON newer.panel = this.panel
                               WHERE this.id = ? AND newer.id > this.id AND newer.state IN ('pending', 'sending'))
                """, arguments: [id]) ?? false
    }

    /// The delivery `id`, if the queue still has it.
    public func delivery(_ id: Int64) throws -> Delivery? {
        try database.read { db in try Self.fetch(db, id: id) }
    }

    /// Writes newest first, at most `limit`; only those of `panel` when given.
    public func list(panel: String? = nil, limit: Int = 100) throws -> [Delivery] {
        try database.read { db in
            let rows = try SQLiteRow.fetchAll(
                db, sql: "SELECT * FROM delivery WHERE ? IS NULL OR panel = ? ORDER BY id DESC LIMIT ?",
                arguments: [panel, panel, limit])
            return try rows.compactMap { row in try health.readable("delivery", in: path) { try Self.delivery(row) } }
        }
    }

    /// Writes not yet final, by panel.
    public func depth() throws -> [String: Int] {
        try database.read { db in
            var counts: [String: Int] = [:]
            for row in try SQLiteRow.fetchAll(
                db, sql: "SELECT panel, COUNT(*) AS n FROM delivery WHERE state IN ('pending', 'sending') GROUP BY panel")
            {
                try health.readable("delivery", in: path) { counts[try row["panel"]] = try row["n"] }
            }
            return counts
        }
    }

    /// Marks `id` as being sent (an attempt begins); it counts as an attempt.
    public func begin(_ id: Int64) throws {
        try write { db in
            try db.execute(sql: "UPDATE delivery SET state = 'sending', attempts = attempts + 1 WHERE id = ?", arguments: [id])
        }
    }

    /// The attempt on `id` failed; it waits until `retryAt`, or, with none, fails for good. A
    /// newer board for its panel that arrived during the attempt takes its place: the failed one
    /// ends superseded instead of waiting, so a retry never writes a stale board.
    public func failed(_ id: Int64, error: String, retryAt: Date?, now: Date) throws {
        try write { db in
            if retryAt != nil, try Self.hasNewer(db, than: id) {
                try db.execute(
                    sql: "UPDATE delivery SET state = 'superseded', lastError = ?, finishedAt = ? WHERE id = ?",
                    arguments: [error, now.timeIntervalSince1970, id])
            } else if let retryAt {
                try db.execute(
                    sql: "UPDATE delivery SET state = 'pending', lastError = ?, notBefore = ? WHERE id = ?",
                    arguments: [error, retryAt.timeIntervalSince1970, id])
            } else {
                try db.execute(
                    sql: "UPDATE delivery SET state = 'failed', lastError = ?, finishedAt = ? WHERE id = ?",
                    arguments: [error, now.timeIntervalSince1970, id])
            }
        }
    }

    /// `id` reached the board: recorded with the board it wrote, in one transaction. With
    /// `written` false the board already showed it and nothing was sent: the record of the last
    /// write (and the cloud's spacing, which counts from it) stays as it was.
    public func sent(_ id: Int64, conflictSeen: Bool = false, written: Bool = true, now: Date) throws {
        try write { db in
            guard let delivery = try Self.fetch(db, id: id) else { return }
            let note: String? =
                conflictSeen
                ? "the board showed another message when read back"
                : written ? nil : "the board already showed it; not written again"
            try db.execute(
                sql: "UPDATE delivery SET state = 'sent', finishedAt = ?, conflictSeen = ?, lastError = ? WHERE id = ?",
                arguments: [now.timeIntervalSince1970, conflictSeen, note, id])
            guard written else { return }
            try db.execute(
                sql: "INSERT OR REPLACE INTO boardWrite (panel, rows, at) VALUES (?, ?, ?)",
                arguments: [delivery.panel, BoardRowsText.text(delivery.rows), now.timeIntervalSince1970])
        }
    }

    /// `id` was not written: the board showed someone else's message.
    public func conflicted(_ id: Int64, now: Date) throws {
        try write { db in
            try db.execute(
                sql: "UPDATE delivery SET state = 'conflict', finishedAt = ?, lastError = ? WHERE id = ?",
                arguments: [now.timeIntervalSince1970, "the board shows a message flapd did not write; not overwritten", id])
        }
    }

    /// Gives a failed or conflicting write another five attempts, now. False if it is not final.
    public func retry(_ id: Int64, now: Date) throws -> Bool {
        try write { db in
            try db.execute(
                sql: """
                    UPDATE delivery SET state = 'pending', attempts = 0, notBefore = ?, finishedAt = NULL
                    WHERE id = ? AND state IN ('failed', 'conflict')
                    """, arguments: [now.timeIntervalSince1970, id])
            return db.changesCount > 0
        }
    }

    /// Cancels a write still waiting. False if it is not pending.
    public func cancel(_ id: Int64, now: Date) throws -> Bool {
        try write { db in
            try db.execute(
                sql: "UPDATE delivery SET state = 'failed', lastError = 'cancelled', finishedAt = ? WHERE id = ? AND state = 'pending'",
                arguments: [now.timeIntervalSince1970, id])
            return db.changesCount > 0
        }
    }

    /// The most finished writes kept, however recent.
    public static let mostFinished = 1_000

    /// Forgets finished writes (sent, failed, superseded, conflicting) older than `before` and
    /// all but the newest `keep`, then checkpoints the WAL: the queue stays the size of its
    /// retention however many boards go through it.
    public func prune(before: Date, keep: Int = DeliveryQueue.mostFinished) throws {
        try write { db in
            try db.execute(
                sql: "DELETE FROM delivery WHERE finishedAt < ? AND state NOT IN ('pending', 'sending')",
                arguments: [before.timeIntervalSince1970])
            try db.execute(
                sql: """
                    DELETE FROM delivery WHERE state NOT IN ('pending', 'sending')
                    AND id <= (SELECT id FROM delivery WHERE state NOT IN ('pending', 'sending') ORDER BY id DESC LIMIT 1 OFFSET ?)
                    """, arguments: [keep])
        }
        try health.recording(path: path) { try database.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) } }
    }

    /// What flapd last wrote to `panel`, and when.
    public func lastWrite(panel: String) throws -> (rows: [[Int]], at: Date)? {
        try database.read { db in
            guard let row = try SQLiteRow.fetchOne(db, sql: "SELECT rows, at FROM boardWrite WHERE panel = ?", arguments: [panel]) else { return nil }
            return try health.readable("boardWrite", in: path) { (Self.rows(try row["rows"]), Date(timeIntervalSince1970: try row["at"])) }
        }
    }

    // MARK: Rows

    private static func fetch(_ db: SQLiteConnection, id: Int64) throws -> Delivery? {
        try SQLiteRow.fetchOne(db, sql: "SELECT * FROM delivery WHERE id = ?", arguments: [id]).map(delivery)
    }

    private static func delivery(_ row: SQLiteRow) throws -> Delivery {
        let transition: String? = try row["transition"]
        return Delivery(
            id: try row["id"], panel: try row["panel"], rows: rows(try row["rows"]),
            transition: transition.flatMap { try? JSONDecoder().decode(BoardTransition.self, from: Data($0.utf8)) },
            strategy: DeliveryStrategy(rawValue: try row["strategy"]) ?? .queued, messageId: try row["messageId"],
            state: Delivery.State(rawValue: try row["state"]) ?? .failed, attempts: try row["attempts"],
            createdAt: Date(timeIntervalSince1970: try row["createdAt"]), notBefore: Date(timeIntervalSince1970: try row["notBefore"]),
            lastError: try row["lastError"], finishedAt: (try row["finishedAt"] as Double?).map(Date.init(timeIntervalSince1970:)),
            conflictSeen: try row["conflictSeen"])
    }

    private static func rows(_ text: String) -> [[Int]] {
        BoardRowsText.rows(text) ?? (try? JSONDecoder().decode([[Int]].self, from: Data(text.utf8))) ?? []
    }

    private static func json(_ value: some Encodable) -> String {
        String(decoding: (try? JSONEncoder().encode(value)) ?? Data("null".utf8), as: UTF8.self)
    }
}

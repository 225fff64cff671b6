import FlapStorage
import Foundation
import Testing

@testable import FlapVestaboard

/// The outbox flapd 0.1.0 wrote (through GRDB) opens as it is, and a new one has its tables.
@Suite struct DeliveryQueueFileCompatibilityTests {
    /// `sqlite_master` of an outbox flapd 0.1.0 made, read off one with `sqlite3`.
    static let schemaOf010 = [
        #"CREATE TABLE "delivery" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "panel" TEXT NOT NULL, "rows" TEXT NOT NULL, "transition" TEXT, "strategy" TEXT NOT NULL, "messageId" TEXT, "state" TEXT NOT NULL, "attempts" INTEGER NOT NULL, "createdAt" DOUBLE NOT NULL, "notBefore" DOUBLE NOT NULL, "lastError" TEXT, "finishedAt" DOUBLE, "conflictSeen" BOOLEAN NOT NULL)"#,
        #"CREATE INDEX "delivery_panel_state" ON "delivery"("panel", "state")"#,
        #"CREATE TABLE "boardWrite" ("panel" TEXT PRIMARY KEY, "rows" TEXT NOT NULL, "at" DOUBLE NOT NULL)"#
    ]
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("outbox-\(UUID().uuidString).sqlite").path

    @Test func aNewOutboxHasTheTablesOf010() throws {
        _ = try DeliveryQueue(path: path)
        let database = try SQLiteDatabase(path: path)
        let schema = try database.read { db in
            try String.fetchAll(
                db, sql: "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT IN ('grdb_migrations', 'sqlite_sequence') ORDER BY rowid")
        }
        #expect(schema == Self.schemaOf010)
    }

    @Test func anOutboxOf010OpensWithWhatIsWaiting() throws {
        let old = try SQLiteDatabase(path: path)
        try old.write { db in
            try db.execute(sql: "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
            for statement in Self.schemaOf010 { try db.execute(sql: statement) }
            try db.execute(sql: "INSERT INTO grdb_migrations VALUES ('v1')")
            try db.execute(
                sql: """
                    INSERT INTO delivery (panel, rows, strategy, messageId, state, attempts, createdAt, notBefore, conflictSeen)
                    VALUES ('wall', '[[1,2,3]]', 'queued', 'm1', 'pending', 0, 1800000000, 1800000000, 0)
                    """)
        }
        old.close()
        let queue = try DeliveryQueue(path: path)
        let waiting = try queue.list(panel: "wall")
        #expect(waiting.map(\.messageId) == ["m1"])
        #expect(waiting.first?.rows == [[1, 2, 3]] && waiting.first?.state == .pending && waiting.first?.conflictSeen == false)
    }

    /// A board's write waits for the queue's commits: in WAL mode each takes one fsync, where a
    /// rollback journal took four (what the post-to-board benchmark found on a Vestaboard's path).
    @Test func theOutboxCommitsThroughAWriteAheadLog() throws {
        let old = try SQLiteDatabase(path: path)
        try old.write { db in try db.execute(sql: "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)") }
        old.close()
        let queue = try DeliveryQueue(path: path)
        try queue.enqueue(panel: "wall", rows: [[1]], transition: nil, strategy: .queued, messageId: nil, now: Date())
        let reader = try SQLiteDatabase(path: path)
        #expect(try reader.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "wal")
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
    }
}

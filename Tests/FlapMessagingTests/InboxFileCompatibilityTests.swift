import FlapCore
import FlapStorage
import Foundation
import Testing

@testable import FlapMessaging

/// An inbox written by flapd 0.1.0 (whose SQLite went through GRDB) opens as it is after an
/// upgrade, and a new one is made with the very same tables, so there is one file format.
@Suite struct InboxFileCompatibilityTests {
    let suite = InboxTests()

    /// `sqlite_master` of an inbox flapd 0.1.0 made (read off one with `sqlite3`), and the
    /// migrations it recorded.
    static let schemaOf010 = [
        #"CREATE TABLE "message" ("id" TEXT PRIMARY KEY, "sender" TEXT NOT NULL, "senderName" TEXT, "source" TEXT NOT NULL, "body" BLOB NOT NULL, "createdAt" DOUBLE NOT NULL, "expiresAt" DOUBLE NOT NULL, "receivedAt" DOUBLE NOT NULL, "seq" INTEGER NOT NULL, "status" TEXT NOT NULL, "reason" TEXT, "finalAt" DOUBLE, notBefore DOUBLE)"#,
        #"CREATE INDEX "message_on_sender" ON "message"("sender")"#,
        #"CREATE INDEX "message_on_finalAt" ON "message"("finalAt")"#,
        #"CREATE TABLE "slot" ("sender" TEXT PRIMARY KEY, "messageId" TEXT NOT NULL REFERENCES "message"("id") ON DELETE CASCADE)"#,
        #"CREATE TABLE "panelState" ("panel" TEXT PRIMARY KEY, "codes" BLOB NOT NULL, "messageId" TEXT, "updatedAt" DOUBLE NOT NULL)"#,
        #"CREATE TABLE receiptCount (status TEXT PRIMARY KEY, n INTEGER NOT NULL)"#,
        """
        CREATE TRIGGER messageInserted AFTER INSERT ON message BEGIN
            UPDATE receiptCount SET n = n + 1 WHERE status = NEW.status;
        END
        """,
        """
        CREATE TRIGGER messageStatusChanged AFTER UPDATE OF status ON message WHEN OLD.status <> NEW.status BEGIN
            UPDATE receiptCount SET n = n - 1 WHERE status = OLD.status;
            UPDATE receiptCount SET n = n + 1 WHERE status = NEW.status;
        END
        """,
        """
        CREATE TRIGGER messageDeleted AFTER DELETE ON message BEGIN
            UPDATE receiptCount SET n = n - 1 WHERE status = OLD.status;
        END
        """,
        #"CREATE TABLE "rateBucket" ("sender" TEXT PRIMARY KEY, "tokens" DOUBLE NOT NULL, "at" DOUBLE NOT NULL)"#,
        #"CREATE TABLE "template" ("name" TEXT PRIMARY KEY, "fields" BLOB NOT NULL, "createdAt" DOUBLE NOT NULL, "updatedAt" DOUBLE NOT NULL)"#,
        #"CREATE INDEX messageScheduled ON message (notBefore) WHERE status = 'scheduled'"#,
        #"CREATE TABLE "schedule" ("name" TEXT PRIMARY KEY, "definition" BLOB NOT NULL, "createdAt" DOUBLE NOT NULL, "updatedAt" DOUBLE NOT NULL)"#,
        #"CREATE TABLE "scheduleCheck" ("name" TEXT PRIMARY KEY, "checkedAt" DOUBLE NOT NULL)"#,
        #"CREATE INDEX messageSeq ON message (seq)"#
    ]
    static let migrationsOf010 = [
        "v1", "v2: counts and rate buckets", "v3: quick messages", "v4: send later", "v5: schedules", "v6: arrival order index"
    ]

    /// The migrations since 0.1.0.
    static let laterMigrations = ["v7: repeats and clears", "v8: secrets"]

    static func schema(_ inbox: Inbox) async throws -> [String] {
        try await inbox.database.read { db in
            try String.fetchAll(
                db, sql: "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT IN ('grdb_migrations', 'sqlite_sequence') ORDER BY name")
        }
    }

    static func migrations(_ inbox: Inbox) async throws -> [String] {
        try await inbox.database.read { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid") }
    }

    @Test func aNewInboxHasTheTablesOf010UpgradedByTheLaterMigrations() async throws {
        let upgraded = try await oldInbox()
        let new = try Inbox(path: suite.directory.appendingPathComponent("new.sqlite").path)
        #expect(try await Self.schema(new) == (try await Self.schema(upgraded)))
        #expect(try await Self.migrations(new) == Self.migrationsOf010 + Self.laterMigrations)
        #expect(try await Self.migrations(upgraded) == Self.migrationsOf010 + Self.laterMigrations)
    }

    @Test func anInboxOf010OpensWithItsMessagesAndIsNotMigratedAgain() async throws {
        let inbox = try await oldInbox()
        #expect(try await inbox.slots().map(\.id) == ["kept"])
        #expect(try await inbox.receipt(id: "kept")?.status == .accepted)
        // Its text, read from its kept body by the upgrade, names it in lists of receipts.
        #expect(try await inbox.receipt(id: "kept")?.text == "HI")
        #expect(try await inbox.counts() == [.accepted: 1, .displayed: 1])
        // The next message continues the arrival order rather than starting it again.
        _ = try await inbox.accept(suite.message("next", from: "bob", created: 1), now: suite.t0 + 1)
        #expect(try await inbox.database.read { db in try Int.fetchOne(db, sql: "SELECT seq FROM message WHERE id = 'next'") } == 8)
    }

    @Test func aMessageOf010WithoutAnIdIsStillRecognisedWhenItsCopyArrives() async throws {
        let inbox = try await oldInbox()
        // 0.1.0 named such a message by the hash that is now its repeat key.
        let copy = try MessageParser(boardSize: .flagship, source: .mqtt).parse(
            Array(#"{"text": "HI", "sender": {"id": "carol"}}"#.utf8), now: suite.t0
        ).0
        #expect(copy.repeatKey == Self.oldHashID)
        guard case .duplicate(let original) = try await inbox.accept(copy, now: suite.t0 + 2, repetition: .copyOfAnyEarlier) else {
            Issue.record("the copy was taken as new"); return
        }
        #expect(original.id == Self.oldHashID)
    }

    /// The id 0.1.0 gave `{"text": "HI", "sender": {"id": "carol"}}` from MQTT.
    static let oldHashID = MessageID.repeatKey(source: .mqtt, sender: "carol", content: .text("HI"), createdAt: nil)

    /// An inbox file as 0.1.0 left it, opened (and so upgraded) by this version.
    func oldInbox() async throws -> Inbox {
        try FileManager.default.createDirectory(at: suite.directory, withIntermediateDirectories: true)
        let path = suite.directory.appendingPathComponent("inbox.sqlite").path
        // The file as 0.1.0 left it: its tables, its migrations, a sender's message in its slot.
        let old = try SQLiteDatabase(path: path, readers: 1)
        let body = try JSONEncoder().encode(suite.message("kept", from: "alice"))
        try await old.write { db in
            try db.execute(sql: "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
            for statement in Self.schemaOf010 { try db.execute(sql: statement) }
            try db.execute(
                sql:
                    "INSERT INTO receiptCount (status, n) VALUES ('accepted', 0), ('displayed', 0), ('superseded', 0), ('expired', 0), ('rejected', 0), ('scheduled', 0), ('cancelled', 0)"
            )
            for identifier in Self.migrationsOf010 { try db.execute(sql: "INSERT INTO grdb_migrations VALUES (?)", arguments: [identifier]) }
            try db.execute(
                sql: """
                    INSERT INTO message (id, sender, source, body, createdAt, expiresAt, receivedAt, seq, status)
                    VALUES ('kept', 'alice', 'test', ?, ?, ?, ?, 7, 'accepted')
                    """, arguments: [body, suite.t0.timeIntervalSince1970, suite.t0.timeIntervalSince1970 + 3600, suite.t0.timeIntervalSince1970])
            try db.execute(sql: "INSERT INTO slot (sender, messageId) VALUES ('alice', 'kept')")
            try db.execute(
                sql: """
                    INSERT INTO message (id, sender, source, body, createdAt, expiresAt, receivedAt, seq, status, finalAt)
                    VALUES (?, 'carol', 'mqtt', x'', ?, ?, ?, 6, 'displayed', ?)
                    """,
                arguments: [
                    Self.oldHashID, suite.t0.timeIntervalSince1970 - 10, suite.t0.timeIntervalSince1970 + 3600,
                    suite.t0.timeIntervalSince1970 - 10, suite.t0.timeIntervalSince1970 - 5
                ])
            try db.execute(sql: "UPDATE receiptCount SET n = 1 WHERE status = 'displayed'")
        }
        old.close()
        return try Inbox(path: path)
    }
}

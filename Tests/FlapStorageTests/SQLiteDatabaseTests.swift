import FlapStorage
import Foundation
import Testing

/// The hand-written SQLite layer on its own: values bound and read back as they were, a
/// transaction undone when its body throws, prepared statements kept and reused, and schema
/// changes applied once each, in order, a failed one leaving nothing behind.
@Suite struct SQLiteDatabaseTests {
    struct Refused: Error {}

    func database(readers: Int = 0) throws -> SQLiteDatabase {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("sqlite-\(UUID().uuidString).sqlite").path
        return try SQLiteDatabase(path: path, readers: readers)
    }

    @Test func everyKindOfValueIsBoundAndReadBackAsItWas() throws {
        let database = try database()
        let text = "Grüße, 'quoted' and \"double\"; 🟥 and a\nline"
        let blob = Data([0, 1, 0, 255, 0])
        try database.write { db in
            try db.execute(sql: "CREATE TABLE v (i INTEGER, n INTEGER, b INTEGER, r REAL, t TEXT, d BLOB, z TEXT)")
            let none: String? = nil
            try db.execute(
                sql: "INSERT INTO v VALUES (?, ?, ?, ?, ?, ?, ?)",
                arguments: [Int64.max, -42, true, 0.1 + 0.2, text, blob, none])
        }
        let row = try #require(try database.read { db in try SQLiteRow.fetchAll(db, sql: "SELECT *, typeof(z) AS kind FROM v") }.first)
        #expect(try row["i"] as Int64 == .max)
        #expect(try row["n"] as Int == -42)
        #expect(try row["b"] as Bool == true)
        #expect(try row["r"] as Double == 0.1 + 0.2)
        #expect(try row["t"] as String == text)
        #expect(try row["d"] as Data == blob, "zero bytes inside a blob are kept")
        #expect(try row["z"] as String? == nil)
        #expect(try row["kind"] as String == "null", "nil is bound as NULL, not as text")
    }

    @Test func aTransactionWhoseBodyThrowsLeavesNothing() throws {
        let database = try database(readers: 1)
        try database.write { db in try db.execute(sql: "CREATE TABLE t (x INTEGER)") }
        #expect(throws: Refused.self) {
            try database.write { db in
                try db.execute(sql: "INSERT INTO t VALUES (1)")
                throw Refused()
            }
        }
        // A savepoint undoes only its own part.
        try database.write { db in
            try db.execute(sql: "INSERT INTO t VALUES (2)")
            _ = try? db.inSavepoint {
                try db.execute(sql: "INSERT INTO t VALUES (3)"); throw Refused()
            }
        }
        #expect(try database.read { db in try Int.fetchAll(db, sql: "SELECT x FROM t") } == [2])
        // The connection is usable afterwards: no transaction left open.
        try database.write { db in try db.execute(sql: "INSERT INTO t VALUES (4)") }
        #expect(try database.read { db in try Int.fetchAll(db, sql: "SELECT x FROM t ORDER BY x") } == [2, 4])
    }

    @Test func aStatementIsPreparedOnceAndStartsAfreshEachTime() throws {
        let database = try database()
        try database.write { db in
            try db.execute(sql: "CREATE TABLE t (x INTEGER)")
            for x in 1...5 { try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [x]) }
            let sql = "SELECT x FROM t WHERE x > ? ORDER BY x"
            #expect(try db.cachedStatement(sql: sql) === db.cachedStatement(sql: sql))
            #expect(try Int.fetchAll(db, sql: sql, arguments: [3]) == [4, 5])
            #expect(try Int.fetchAll(db, sql: sql, arguments: [0]) == [1, 2, 3, 4, 5], "no row or binding left from the last use")
            // Past the cache's bound it starts again, and every statement still works.
            for n in 0..<200 { #expect(try Int.fetchOne(db, sql: "SELECT \(n)") == n) }
            #expect(try Int.fetchAll(db, sql: sql, arguments: [4]) == [5])
        }
    }

    @Test func migrationsRunOnceInOrderAndAFailedOneLeavesNothing() throws {
        let database = try database()
        var migrator = SQLiteMigrator()
        migrator.registerMigration("1 the table") { db in try db.execute(sql: "CREATE TABLE t (x INTEGER)") }
        migrator.registerMigration("2 a row") { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        migrator.registerMigration("3 half done") { db in
            try db.execute(sql: "CREATE TABLE u (y INTEGER)")
            try db.execute(sql: "INSERT INTO t VALUES (99)")
            try db.execute(sql: "INSERT INTO nowhere VALUES (1)")
        }
        #expect(throws: SQLiteError.self) { try migrator.migrate(database) }
        let applied = { try database.read { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid") } }
        #expect(try applied() == ["1 the table", "2 a row"])
        #expect(try database.read { db in try Int.fetchAll(db, sql: "SELECT x FROM t") } == [1], "the failed migration's row is undone")
        #expect(try database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE name = 'u'") } == 0)

        // Fixed, it runs once; those applied are not run again.
        var fixed = SQLiteMigrator()
        fixed.registerMigration("1 the table") { db in try db.execute(sql: "CREATE TABLE t (x INTEGER)") }
        fixed.registerMigration("2 a row") { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        fixed.registerMigration("3 half done") { db in try db.execute(sql: "CREATE TABLE u (y INTEGER)") }
        try fixed.migrate(database)
        try fixed.migrate(database)
        #expect(try applied() == ["1 the table", "2 a row", "3 half done"])
        #expect(try database.read { db in try Int.fetchAll(db, sql: "SELECT x FROM t") } == [1])
    }

    @Test func aDatabaseChangedByANewerFlapdIsRefusedSayingWhatToDo() throws {
        let database = try database()
        var newer = SQLiteMigrator()
        newer.registerMigration("1 the table") { db in try db.execute(sql: "CREATE TABLE t (x INTEGER)") }
        newer.registerMigration("2 a column") { db in try db.execute(sql: "ALTER TABLE t ADD COLUMN y INTEGER") }
        try newer.migrate(database)
        // Gone back a version: the older flapd knows only the first change.
        var older = SQLiteMigrator()
        older.registerMigration("1 the table") { db in try db.execute(sql: "CREATE TABLE t (x INTEGER)") }
        let refusal = SQLiteMigrator.NewerSchema(path: database.path, unknown: ["2 a column"])
        #expect(throws: refusal) { try older.migrate(database) }
        #expect(refusal.description.contains("install the newer version again (apt install vestawidget)"))
        try newer.migrate(database)
    }
}

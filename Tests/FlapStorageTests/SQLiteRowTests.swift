import FlapStorage
import Foundation
import Logging
import TestSupport
import Testing

/// A row whose column holds what flapd did not write there is an error that names the column and
/// what it found, and a reader skips it, said once: never a crash.
@Suite struct SQLiteRowTests {
    func database() throws -> SQLiteDatabase {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rows-\(UUID().uuidString).sqlite").path
        let database = try SQLiteDatabase(path: path)
        try database.write { db in
            try db.execute(sql: "CREATE TABLE t (name TEXT, at REAL, body BLOB)")
            try db.execute(sql: "INSERT INTO t VALUES ('good', 1.5, x'00'), (NULL, 'yesterday', 'text')")
        }
        return database
    }

    @Test func aNullOrAMistypedValueIsAnErrorNamingTheColumn() throws {
        let rows = try database().read { db in try SQLiteRow.fetchAll(db, sql: "SELECT * FROM t ORDER BY rowid") }
        #expect(try rows[0]["name"] as String == "good" && rows[0]["at"] as Double == 1.5)
        #expect(throws: SQLiteRowError(column: "name", problem: "holds NULL, not String")) { try rows[1]["name"] as String }
        #expect(throws: SQLiteRowError(column: "at", problem: "holds text of 9 bytes, not Double")) { try rows[1]["at"] as Double }
        #expect(throws: SQLiteRowError(column: "missing", problem: "is not in the result")) { try rows[0]["missing"] as Int }
        #expect(try rows[1]["name"] as String? == nil, "an optional takes NULL")
    }

    @Test func aReaderSkipsTheRowAndSaysSoOnce() throws {
        let rows = try database().read { db in try SQLiteRow.fetchAll(db, sql: "SELECT * FROM t ORDER BY rowid") }
        let said = LogLines()
        let health = StorageHealth(logger: said.logger)
        for _ in 0..<3 {
            let names = try rows.compactMap { row in try health.readable("t", in: "/x.sqlite") { try row["name"] as String } }
            #expect(names == ["good"])
        }
        #expect(
            said.all.count == 1 && said.all[0].contains("a row of t in /x.sqlite cannot be read and is skipped: column name holds NULL, not String"),
            "\(said.all)")
    }
}

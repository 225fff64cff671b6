import FlapStorage
import Foundation
import Logging
import Synchronization
import TestSupport
import Testing

/// Storage faults told apart, said once, and damaged files moved aside.
@Suite struct StorageFaultClassificationTests {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("storage-\(UUID().uuidString).sqlite").path

    @Test func sqliteAndPOSIXErrorsAreToldApart() {
        #expect(StorageFault(SQLiteError(code: .full), path: path)?.kind == .full)
        #expect(StorageFault(SQLiteError(code: .readOnly), path: path)?.kind == .readOnly)
        #expect(StorageFault(SQLiteError(code: .corrupt), path: path)?.kind == .damaged)
        #expect(StorageFault(SQLiteError(code: .notADatabase), path: path)?.kind == .damaged)
        #expect(StorageFault(POSIXError(.ENOSPC), path: path)?.kind == .full)
        #expect(StorageFault(POSIXError(.EROFS), path: path)?.kind == .readOnly)
        #expect(StorageFault(CocoaError(.fileWriteOutOfSpace), path: path)?.kind == .full)
        // Not the storage's fault: a constraint, a busy database, anything else.
        #expect(StorageFault(SQLiteError(code: .constraint), path: path) == nil)
        #expect(StorageFault(SQLiteError(code: .busy), path: path) == nil)
        #expect(StorageFault(CancellationError(), path: path) == nil)
    }

    @Test func aFaultSaysWhatIsWrongWhereAndWhatToDo() {
        let full = StorageFault(kind: .full, path: "/var/lib/flapd/inbox.sqlite", freeBytes: 3 * 1024, detail: "SQLITE_FULL")
        #expect(
            full.description
                == "the disk is full: /var/lib/flapd/inbox.sqlite cannot be written (3.0 KiB free); free some space on it and flapd carries on by itself"
        )
        let readOnly = StorageFault(kind: .readOnly, path: "/var/lib/flapd/inbox.sqlite", detail: "")
        #expect(readOnly.description.contains("read-only") && readOnly.description.contains("remount"))
        #expect(StorageFault.bytes(512) == "512 B" && StorageFault.bytes(1536) == "1.5 KiB" && StorageFault.bytes(300 << 20) == "300 MiB")
    }

    @Test func aFaultIsLoggedOnceWhenItBeginsAndOnceWhenItEnds() {
        let lines = LogLines()
        let health = StorageHealth(logger: lines.logger)
        for _ in 0..<50 { health.failed(SQLiteError(code: .full), path: path) }
        #expect(health.faults.map(\.kind) == [.full])
        // A success elsewhere ends nothing here.
        health.succeeded(path: path + "-other")
        #expect(health.faults.count == 1)
        for _ in 0..<50 { health.succeeded(path: path) }
        #expect(health.faults.isEmpty)
        #expect(lines.all.count == 2, "\(lines.all)")
        #expect(lines.all.first?.contains("the disk is full") == true && lines.all.last?.contains("can be written again") == true)
        // Not a storage fault: not recorded, not logged.
        #expect(health.failed(SQLiteError(code: .constraint), path: path) == nil)
        #expect(lines.all.count == 2)
    }

    /// Opens a database and reads its schema, as the inbox and the outbox do.
    func open(_ path: String) throws -> SQLiteDatabase {
        let database = try SQLiteDatabase(path: path)
        _ = try database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master") }
        return database
    }

    @Test func soundAndAbsentDatabasesAreOpenedAsTheyAre() throws {
        let health = StorageHealth()
        let database = try DatabaseFile.opening(path, health: health, open)
        try database.write { db in try db.execute(sql: "CREATE TABLE t (x); INSERT INTO t VALUES (1)") }
        database.close()
        let again = try DatabaseFile.opening(path, health: health, open)
        #expect(try again.read { db in try Int.fetchOne(db, sql: "SELECT x FROM t") } == 1)
        #expect(health.filesMovedAside.isEmpty)
    }

    @Test func aFileThatIsNotADatabaseIsMovedAsideNotDeletedAndAnEmptyOneOpened() throws {
        let garbage = Data((0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        try garbage.write(to: URL(fileURLWithPath: path))
        let health = StorageHealth()
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let database = try DatabaseFile.opening(path, health: health, now: now, open)
        let moved = path + ".damaged-20270115T080000Z"
        #expect(health.filesMovedAside.first?.path == path && health.filesMovedAside.first?.movedTo == moved)
        #expect(FileManager.default.contents(atPath: moved) == garbage)
        #expect(try database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master") } == 0)
    }

    @Test func afterAStopThatWasNotCleanADatabaseFailingItsIntegrityCheckIsMovedAside() throws {
        let database = try SQLiteDatabase(path: path) { db in try db.execute(sql: "PRAGMA journal_mode = WAL") }
        try database.write { db in
            try db.execute(sql: "CREATE TABLE message (id TEXT PRIMARY KEY, body TEXT)")
            for i in 0..<2000 { try db.execute(sql: "INSERT INTO message VALUES (?, ?)", arguments: ["id\(i)", String(repeating: "x", count: 100)]) }
        }
        try database.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        database.close()
        // Scribble over pages in the middle of the file, as a card that lost power mid-write
        // might, and leave a WAL as a power cut does.
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        try handle.seek(toOffset: 4096 * 20)
        try handle.write(contentsOf: Data(repeating: 0xA5, count: 4096 * 4))
        try handle.close()
        #expect(try DatabaseFile.integrityProblem(path) != nil)
        FileManager.default.createFile(atPath: path + "-wal", contents: Data())
        #expect(DatabaseFile.wasNotStoppedCleanly(path))
        let health = StorageHealth()
        let fresh = try DatabaseFile.opening(path, health: health, open)
        let moved = try #require(health.filesMovedAside.first?.movedTo)
        #expect(FileManager.default.fileExists(atPath: moved) && !FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(health.filesMovedAside.first?.reason.isEmpty == false)
        #expect(try fresh.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master") } == 0)
    }
}

import CSQLite
import FoundationEssentials

/// One connection to a SQLite file, used by one thread at a time: ``SQLiteDatabase`` keeps each
/// behind a `Mutex` and lends it only to a closure that runs under that lock (hence unchecked:
/// the compiler cannot see that a closure's argument does not outlive the call).
///
/// Written over the system's libsqlite3 rather than with GRDB, which links all of Foundation
/// (and with it ICU's 34 MB of data) into flapd, or sqlite-nio, which builds a second copy of
/// SQLite into it: flapd needs statements, rows, transactions and migrations, nothing more.
public final class SQLiteConnection: @unchecked Sendable {
    let handle: OpaquePointer
    /// The database file.
    public let path: String
    private var statements: [String: SQLiteStatement] = [:]

    /// Opens (or, unless `readOnly`, creates) the database at `path`, and reads its schema
    /// so a file that is not a database is told at once.
    init(path: String, readOnly: Bool = false) throws {
        var handle: OpaquePointer?
        let flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOMUTEX
        let result = sqlite3_open_v2(path, &handle, flags, nil)
        guard result == SQLITE_OK, let handle else {
            let error = SQLiteError(result, connection: handle)
            sqlite3_close_v2(handle)
            throw error
        }
        self.handle = handle
        self.path = path
        sqlite3_extended_result_codes(handle, 1)
        // Another connection of flapd's (a reader during a checkpoint) may hold a lock briefly.
        sqlite3_busy_timeout(handle, 5_000)
        do {
            try execute(sql: "PRAGMA foreign_keys = ON")
            _ = try rows(sql: "SELECT * FROM sqlite_master LIMIT 1")
            // SQLite opens a file it cannot write read-only without a word (a card remounted
            // read-only after errors): say so now, not at the first write.
            if !readOnly, sqlite3_db_readonly(handle, "main") == 1 {
                throw SQLiteError(code: .readOnly, message: "attempt to write a readonly database", sql: nil)
            }
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    private var closed = false

    /// Closes the connection; later calls fail with SQLITE_MISUSE.
    func close() {
        guard !closed else { return }
        closed = true
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Runs `sql`: one statement with `arguments`, or several separated by semicolons without.
    public func execute(sql: String, arguments: SQLiteArguments = []) throws {
        if arguments.values.isEmpty {
            let result = sqlite3_exec(handle, sql, nil, nil, nil)
            guard result == SQLITE_OK else { throw SQLiteError(result, connection: handle, sql: sql) }
        } else {
            try cachedStatement(sql: sql).execute(arguments: arguments)
        }
    }

    /// Every row `sql` gives.
    public func rows(sql: String, arguments: SQLiteArguments = []) throws -> [SQLiteRow] {
        try cachedStatement(sql: sql).rows(arguments: arguments)
    }

    /// The statement for `sql`, prepared once for the connection's life.
    public func cachedStatement(sql: String) throws -> SQLiteStatement {
        if let statement = statements[sql] { return statement }
        let statement = try prepare(sql)
        // flapd's SQL is a fixed set of strings; the bound only matters if that ever changes.
        if statements.count >= 128 { statements.removeAll() }
        statements[sql] = statement
        return statement
    }

    private func prepare(_ sql: String) throws -> SQLiteStatement {
        guard !closed else { throw SQLiteError(code: .misuse, message: "the database is closed", sql: sql) }
        var statement: OpaquePointer?
        let result = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard result == SQLITE_OK, let statement else { throw SQLiteError(result, connection: handle, sql: sql) }
        return SQLiteStatement(statement, sql: sql, connection: self)
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    public var changesCount: Int { Int(sqlite3_changes64(handle)) }

    /// The rowid of the last row inserted.
    public var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Runs `body` in a savepoint: kept when it returns, undone when it throws.
    public func inSavepoint<T>(_ body: () throws -> T) throws -> T {
        try execute(sql: "SAVEPOINT flapd")
        do {
            let result = try body()
            try execute(sql: "RELEASE SAVEPOINT flapd")
            return result
        } catch {
            try? execute(sql: "ROLLBACK TO SAVEPOINT flapd")
            try? execute(sql: "RELEASE SAVEPOINT flapd")
            throw error
        }
    }

    /// Runs `body` in a transaction begun with `begin`: committed when it returns, rolled back
    /// when it (or `finishing`, or the commit) throws. `beforeCommit` is given what `body`
    /// returned as soon as it returns; `finishing` then writes what belongs to the same
    /// transaction but need not be written before the caller is told.
    func inTransaction<T>(
        _ begin: String, _ body: (SQLiteConnection) throws -> T, beforeCommit: (T) -> Void = { _ in },
        finishing: (T, SQLiteConnection) throws -> Void = { _, _ in }
    ) throws -> T {
        let result = try open(begin, body)
        beforeCommit(result)
        try finish(result, finishing)
        try commit()
        return result
    }

    /// Runs `finishing` in the transaction under way; rolled back when it throws.
    func finish<T>(_ result: T, _ finishing: (T, SQLiteConnection) throws -> Void) throws {
        do {
            try finishing(result, self)
        } catch {
            rollBack()
            throw error
        }
    }

    /// Begins a transaction with `begin` and runs `body` in it, leaving it open for ``commit()``;
    /// rolled back when `body` throws.
    func open<T>(_ begin: String, _ body: (SQLiteConnection) throws -> T) throws -> T {
        try execute(sql: begin)
        do {
            return try body(self)
        } catch {
            rollBack()
            throw error
        }
    }

    /// Commits the transaction under way; rolled back when the commit fails.
    func commit() throws {
        do {
            try execute(sql: "COMMIT")
        } catch {
            rollBack()
            throw error
        }
    }

    /// Undoes the transaction under way, if one is (a failed statement may have ended it already).
    func rollBack() {
        if sqlite3_get_autocommit(handle) == 0 { try? execute(sql: "ROLLBACK") }
    }

    /// How far a checkpoint goes: SQLite's `SQLITE_CHECKPOINT_*`.
    public enum CheckpointMode: Int32, Sendable {
        case passive = 0, full = 1, restart = 2, truncate = 3
    }

    /// Copies the write-ahead log into the database; `.truncate` then empties the log file.
    public func checkpoint(_ mode: CheckpointMode) throws {
        let result = sqlite3_wal_checkpoint_v2(handle, nil, mode.rawValue, nil, nil)
        guard result == SQLITE_OK else { throw SQLiteError(result, connection: handle, sql: "checkpoint") }
    }
}

extension SQLiteValueConvertible {
    /// The first column of the first row `sql` gives, or nil (no row, or NULL).
    public static func fetchOne(_ db: SQLiteConnection, sql: String, arguments: SQLiteArguments = []) throws -> Self? {
        try db.cachedStatement(sql: sql).firstRow(arguments: arguments)?.value(at: 0)
    }

    /// The first column of every row `sql` gives; rows where it is NULL are left out.
    public static func fetchAll(_ db: SQLiteConnection, sql: String, arguments: SQLiteArguments = []) throws -> [Self] {
        try db.rows(sql: sql, arguments: arguments).compactMap { $0.value(at: 0) }
    }
}

extension SQLiteRow {
    /// The first row `sql` gives, or nil.
    public static func fetchOne(_ db: SQLiteConnection, sql: String, arguments: SQLiteArguments = []) throws -> SQLiteRow? {
        try db.cachedStatement(sql: sql).firstRow(arguments: arguments)
    }

    /// Every row `sql` gives.
    public static func fetchAll(_ db: SQLiteConnection, sql: String, arguments: SQLiteArguments = []) throws -> [SQLiteRow] {
        try db.rows(sql: sql, arguments: arguments)
    }
}

extension SQLiteValueConvertible {
    /// The first column of the first row `statement` gives, or nil (no row, or NULL).
    public static func fetchOne(_ statement: SQLiteStatement, arguments: SQLiteArguments = []) throws -> Self? {
        try statement.firstRow(arguments: arguments)?.value(at: 0)
    }

    /// The first column of every row `statement` gives.
    public static func fetchAll(_ statement: SQLiteStatement, arguments: SQLiteArguments = []) throws -> [Self] {
        try statement.rows(arguments: arguments).compactMap { $0.value(at: 0) }
    }
}

extension SQLiteRow {
    /// The first row `statement` gives, or nil.
    public static func fetchOne(_ statement: SQLiteStatement, arguments: SQLiteArguments = []) throws -> SQLiteRow? {
        try statement.firstRow(arguments: arguments)
    }

    /// Every row `statement` gives.
    public static func fetchAll(_ statement: SQLiteStatement, arguments: SQLiteArguments = []) throws -> [SQLiteRow] {
        try statement.rows(arguments: arguments)
    }
}

import CSQLite
import Dispatch
import Synchronization

/// A SQLite file with one writing connection and, in WAL mode, reading connections beside it,
/// so a read never waits for a commit. Safe to use from any task; each call holds a connection
/// for as long as its closure runs (keep them short: they block the calling thread).
public final class SQLiteDatabase: Sendable {
    /// The database file.
    public let path: String
    private let writer: Mutex<SQLiteConnection>
    private let readers: [Reader]
    private let nextReader = Atomic<Int>(0)
    /// Where awaited writes and reads run, so a commit's fsync holds neither the caller's actor
    /// nor a thread of Swift's cooperative pool (two, on a two-core board).
    private let writing = DispatchQueue(label: "flapd.sqlite.write")
    private let reading = DispatchQueue(label: "flapd.sqlite.read", attributes: .concurrent)

    /// Opens (or creates) the database at `path`. With `readers` above 0 it is put in WAL mode
    /// and reads get connections of their own; with 0 everything goes through the one
    /// connection, in WAL mode too when `writeAheadLog` says so. `prepare` runs on every
    /// connection as it opens (pragmas).
    public init(path: String, readers: Int = 0, writeAheadLog: Bool = false, prepare: (SQLiteConnection) throws -> Void = { _ in }) throws {
        self.path = path
        let writing = try SQLiteConnection(path: path)
        try prepare(writing)
        if readers > 0 || writeAheadLog {
            // WAL: readers see the last commit while the writer writes the next, and a commit
            // takes one fsync where a rollback journal takes three or four.
            _ = try String.fetchOne(writing, sql: "PRAGMA journal_mode = WAL")
        }
        var reading: [Reader] = []
        for _ in 0..<readers {
            let connection = try SQLiteConnection(path: path)
            try prepare(connection)
            try connection.execute(sql: "PRAGMA query_only = 1")
            reading.append(Reader(connection: Mutex(connection)))
        }
        writer = Mutex(writing)
        self.readers = reading
    }

    /// Runs `body` in a read transaction: every statement in it sees the same commit.
    public func read<T: Sendable>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        guard !readers.isEmpty else { return try writer.withLock { try $0.inTransaction("BEGIN DEFERRED", body) } }
        let index = nextReader.wrappingAdd(1, ordering: .relaxed).oldValue % readers.count
        return try readers[index].connection.withLock { try $0.inTransaction("BEGIN DEFERRED", body) }
    }

    /// Runs `body` in a write transaction, committed when it returns, rolled back when it throws.
    public func write<T: Sendable>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try writer.withLock { try $0.inTransaction("BEGIN IMMEDIATE", body) }
    }

    /// Runs `body` on the writing connection outside any transaction (checkpoints, VACUUM, or
    /// transactions `body` manages itself).
    public func writeWithoutTransaction<T: Sendable>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try writer.withLock { try body($0) }
    }

    /// ``read(_:)`` on a thread of the database's own; the caller suspends meanwhile.
    public func read<T: Sendable>(_ body: @escaping @Sendable (SQLiteConnection) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            reading.async { continuation.resume(with: Result { try self.read(body) }) }
        }
    }

    /// ``write(_:)`` on a thread of the database's own; the caller suspends meanwhile, so an
    /// actor keeps taking work (the next group to commit) while this one is committed.
    /// `beforeCommit` is given what `body` returned as the commit (and its fsync) starts, on that
    /// thread: a caller may act on what it will most likely be told, while the disk catches up.
    /// `finishing` then writes, in the same transaction, what need not come before that.
    public func write<T: Sendable>(
        _ body: @escaping @Sendable (SQLiteConnection) throws -> T, beforeCommit: @escaping @Sendable (T) -> Void = { _ in },
        finishing: @escaping @Sendable (T, SQLiteConnection) throws -> Void = { _, _ in }
    ) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            writing.async {
                continuation.resume(
                    with: Result {
                        try self.writer.withLock {
                            try $0.inTransaction("BEGIN IMMEDIATE", body, beforeCommit: beforeCommit, finishing: finishing)
                        }
                    })
            }
        }
    }

    /// ``write(_:beforeCommit:finishing:)`` with `body` and `beforeCommit` run here, on the
    /// caller's thread, and `finishing` and the commit (its fsync) on the database's own thread.
    /// The rest of the transaction is handed over before `beforeCommit` runs, so this thread is
    /// free as soon as it returns: the work `beforeCommit` wakes (a panel's task) runs on a
    /// thread already awake rather than waiting for one to wake. The transaction stays open
    /// between the two, so the caller makes sure nothing else writes through this database
    /// until this returns.
    public func writeStartingHere<T: Sendable>(
        _ body: (SQLiteConnection) throws -> T, beforeCommit: (T) -> Void,
        finishing: @escaping @Sendable (T, SQLiteConnection) throws -> Void = { _, _ in }
    ) async throws -> T {
        let result = try writer.withLock { try $0.open("BEGIN IMMEDIATE", body) }
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            writing.async {
                continuation.resume(
                    with: Result {
                        try self.writer.withLock {
                            try $0.finish(result, finishing); try $0.commit()
                        }
                    })
            }
            beforeCommit(result)
        }
        return result
    }

    /// Closes every connection; calls after this fail.
    public func close() {
        writer.withLock { $0.close() }
        for reader in readers { reader.connection.withLock { $0.close() } }
    }

    /// A reading connection (an array cannot hold a `Mutex` itself: it is not copyable).
    private final class Reader: Sendable {
        let connection: Mutex<SQLiteConnection>
        init(connection: consuming Mutex<SQLiteConnection>) { self.connection = connection }
    }
}

/// Applies a database's schema changes once each, in the order they were registered, each in
/// a transaction of its own. Applied ones are listed in the table `grdb_migrations`, the name
/// GRDB gave it when it made flapd's files, so databases made by earlier versions carry on.
public struct SQLiteMigrator: Sendable {
    private var migrations: [(identifier: String, apply: @Sendable (SQLiteConnection) throws -> Void)] = []

    /// A migrator with no changes yet.
    public init() {}

    /// Adds the change `identifier`, made by `apply`, after those registered before.
    public mutating func registerMigration(_ identifier: String, _ apply: @escaping @Sendable (SQLiteConnection) throws -> Void) {
        migrations.append((identifier, apply))
    }

    /// A database changed by a later flapd than this one (after going back a version with apt):
    /// refused rather than written to, since this flapd does not know what the changes mean.
    public struct NewerSchema: Error, Sendable, Equatable, CustomStringConvertible {
        /// The database.
        public var path: String
        /// The changes this flapd does not know, by their names.
        public var unknown: [String]

        /// The database at `path`, changed by `unknown`.
        public init(path: String, unknown: [String]) {
            self.path = path
            self.unknown = unknown
        }

        /// What happened and what to do.
        public var description: String {
            "\(path) was changed by a newer flapd (\(unknown.joined(separator: ", "))), which this version cannot read safely: "
                + "install the newer version again (apt install vestawidget), or stop flapd and move the file aside to start it afresh"
        }
    }

    /// Applies the changes `database` has not had, each in a transaction of its own; refuses a database changed by a newer flapd.
    public func migrate(_ database: SQLiteDatabase) throws {
        try database.write { db in
            try db.execute(sql: "CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
        }
        let applied = Set(try database.read { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") })
        let unknown = applied.subtracting(migrations.map(\.identifier)).sorted()
        guard unknown.isEmpty else { throw NewerSchema(path: database.path, unknown: unknown) }
        for migration in migrations where !applied.contains(migration.identifier) {
            try database.write { db in
                try migration.apply(db)
                try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES (?)", arguments: [migration.identifier])
            }
        }
    }
}

import FoundationEssentials

/// A SQLite file flapd keeps, checked as it is opened.
public enum DatabaseFile {
    /// Opens the database at `path` with `open`. A damaged one is moved aside, with its `-wal`
    /// and `-shm` files, to `NAME.damaged-YYYYMMDDTHHMMSSZ` beside it (never deleted: someone may
    /// want what is in it), recorded in `health`, and an empty one opened in its place.
    ///
    /// Damaged means: not a database, or found damaged by SQLite as it opens it, or, after a stop
    /// that was not clean (a power cut, a kill: its `-wal` or `-journal` file is still there; a
    /// clean stop leaves none), failing `PRAGMA integrity_check`. After a clean stop the file was
    /// whole when it was closed, and the check is left out, so a restart takes no longer with a
    /// full inbox than with an empty one. A read-only or failing disk is not damage: its fault is
    /// thrown, with the path and what to do.
    public static func opening<T>(_ path: String, health: StorageHealth, now: Date = Date(), _ open: (String) throws -> T) throws -> T {
        if wasNotStoppedCleanly(path) {
            let problem: String?
            do {
                problem = try integrityProblem(path)
            } catch {
                throw StorageFault(error, path: path) ?? error
            }
            if let problem { try setAside(path, reason: problem, health: health, now: now) }
        }
        do {
            return try open(path)
        } catch let error where StorageFault(error, path: path)?.kind == .damaged {
            try setAside(path, reason: (error as? SQLiteError)?.message ?? "\(error)", health: health, now: now)
            return try open(path)
        }
    }

    /// 20261124T061500Z: sortable, and safe in a file name.
    static let compactUTC = Date.ISO8601FormatStyle(dateSeparator: .omitted, dateTimeSeparator: .standard, timeSeparator: .omitted, timeZone: .gmt)

    /// Whether the database at `path` was left with its write-ahead log or rollback journal.
    public static func wasNotStoppedCleanly(_ path: String) -> Bool {
        ["-wal", "-journal"].contains { FileManager.default.fileExists(atPath: path + $0) }
    }

    /// Moves the database at `path` (and its `-wal`, `-shm` and `-journal`) aside; returns where.
    @discardableResult
    public static func setAside(_ path: String, reason: String, health: StorageHealth, now: Date = Date()) throws -> String {
        let target = "\(path).damaged-\(now.formatted(Self.compactUTC))"
        for suffix in ["", "-wal", "-shm", "-journal"] where FileManager.default.fileExists(atPath: path + suffix) {
            do {
                try FileManager.default.moveItem(atPath: path + suffix, toPath: target + suffix)
            } catch {
                throw StorageFault(error, path: path)
                    ?? StorageFault(kind: .failing, path: path, detail: "it is damaged (\(reason)) and cannot be moved aside: \(error)")
            }
        }
        health.movedAside(path, to: target, reason: reason, at: now)
        return target
    }

    /// What `PRAGMA integrity_check` finds wrong in the database at `path` (or SQLite says when
    /// it cannot even be read as one), or nil when it is sound. Throws what is not damage.
    public static func integrityProblem(_ path: String) throws -> String? {
        do {
            let database = try SQLiteDatabase(path: path)
            defer { database.close() }
            let findings = try database.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
            guard findings != ["ok"] else { return nil }
            return "integrity check: " + findings.prefix(3).joined(separator: "; ")
        } catch let error where StorageFault(error, path: path)?.kind == .damaged {
            return "\((error as? SQLiteError)?.message ?? "\(error)")"
        }
    }
}

import Foundation
import GRDB

/// A SQLite file flapd keeps, checked before it is opened for good.
public enum DatabaseFile {
    /// Checks the database at `path` (it must be a database and pass `PRAGMA integrity_check`).
    /// A damaged one is moved aside, with its `-wal` and `-shm` files, to
    /// `NAME.damaged-YYYYMMDDTHHMMSSZ` beside it (never deleted: someone may want what is in
    /// it), and recorded in `health`, so the caller opens an empty one in its place. Returns
    /// where it was moved, or nil when the file is sound or absent.
    ///
    /// A read-only or failing disk is not damage: its fault is thrown, with the path and what to do.
    @discardableResult
    public static func setAsideIfDamaged(_ path: String, health: StorageHealth, now: Date = Date()) throws -> String? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let problem: String?
        do {
            problem = try integrityProblem(path)
        } catch {
            throw StorageFault(error, path: path) ?? error
        }
        guard let problem else { return nil }
        let stamp = ISO8601DateFormatter.compactUTC.string(from: now)
        let target = "\(path).damaged-\(stamp)"
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            do {
                try FileManager.default.moveItem(atPath: path + suffix, toPath: target + suffix)
            } catch {
                throw StorageFault(error, path: path) ?? StorageFault(kind: .failing, path: path, detail: "it is damaged (\(problem)) and cannot be moved aside: \(error)")
            }
        }
        health.movedAside(path, to: target, reason: problem, at: now)
        return target
    }

    /// What `PRAGMA integrity_check` finds wrong in the database at `path` (or SQLite says when
    /// it cannot even be read as one), or nil when it is sound. Throws what is not damage.
    public static func integrityProblem(_ path: String) throws -> String? {
        do {
            let database = try DatabaseQueue(path: path)
            defer { try? database.close() }
            let findings = try database.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
            guard findings != ["ok"] else { return nil }
            return "integrity check: " + findings.prefix(3).joined(separator: "; ")
        } catch let error where StorageFault(error, path: path)?.kind == .damaged {
            return "\((error as? DatabaseError)?.message ?? "\(error)")"
        }
    }
}

extension ISO8601DateFormatter {
    /// 20261124T061500Z: sortable, and safe in a file name.
    static var compactUTC: ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withYear, .withMonth, .withDay, .withTime, .withTimeZone]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter
    }
}

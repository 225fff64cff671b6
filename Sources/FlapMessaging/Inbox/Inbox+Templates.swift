import FlapJSON
import FlapPrimitives
import FlapStorage
import FoundationEssentials

/// A quick message: a message's fields under a name, to send again with one request.
public struct QuickMessage: Sendable, Equatable, Encodable {
    /// Its name, as `POST /v1/templates/{name}/send` names it.
    public var name: String
    /// The message fields kept: `text` or `codes`, `align`, `valign`, `transition`.
    public var fields: [String: JSONValue]
    /// When it was first saved.
    public var createdAt: Date
    /// When it was last changed.
    public var updatedAt: Date

    /// At most this many are kept.
    public static let most = 20
    /// The fields a template keeps; the rest of a message (id, sender, times) is the sending's.
    public static let keptFields = ["text", "codes", "pattern", "vbml", "align", "valign", "transition", "duration"]

    /// What is wrong with `name` as a template's name, or nil.
    public static func nameProblem(_ name: String) -> String? {
        if name.contains("/") || name.contains(where: \.isNewline) { return "a name cannot hold / or a line break" }
        return ShownName.problem(name)
    }
}

/// Why a template could not be saved, renamed or removed.
public enum QuickMessageError: Error, Equatable, Sendable {
    case full
    case missing
    case taken
}

extension Inbox {
    /// Every quick message, by name.
    public func templates() throws -> [QuickMessage] {
        try database.read { db in
            try SQLiteRow.fetchAll(db, sql: "SELECT * FROM template ORDER BY name").compactMap { row in
                try health.readable("template", in: path) { try Self.template(row) }
            }
        }
    }

    /// The quick message called `name`, or nil.
    public func template(_ name: String) throws -> QuickMessage? {
        try database.read { db in try SQLiteRow.fetchOne(db, sql: "SELECT * FROM template WHERE name = ?", arguments: [name]).map(Self.template) }
    }

    /// Saves (or replaces) `name` with `fields` (a JSON object); returns whether it is new. A 21st is refused.
    @discardableResult
    public func saveTemplate(_ name: String, fields data: Data, now: Date) async throws -> Bool {
        _ = try JSONDecoder().decode([String: JSONValue].self, from: data)
        return try await storedWrite { db in
            let exists = try Bool.fetchOne(db, sql: "SELECT 1 FROM template WHERE name = ?", arguments: [name]) ?? false
            if exists {
                try db.execute(
                    sql: "UPDATE template SET fields = ?, updatedAt = ? WHERE name = ?", arguments: [data, now.timeIntervalSince1970, name])
                return false
            }
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM template") ?? 0
            guard count < QuickMessage.most else { throw QuickMessageError.full }
            try db.execute(
                sql: "INSERT INTO template (name, fields, createdAt, updatedAt) VALUES (?, ?, ?, ?)",
                arguments: [name, data, now.timeIntervalSince1970, now.timeIntervalSince1970])
            return true
        }
    }

    /// Gives `name` the name `newName`; refused when there is none or `newName` is taken.
    public func renameTemplate(_ name: String, to newName: String, now: Date) async throws {
        try await storedWrite { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM template WHERE name = ?", arguments: [name]) ?? false else {
                throw QuickMessageError.missing
            }
            let taken = try Bool.fetchOne(db, sql: "SELECT 1 FROM template WHERE name = ?", arguments: [newName]) ?? false
            if name != newName, taken { throw QuickMessageError.taken }
            try db.execute(sql: "UPDATE template SET name = ?, updatedAt = ? WHERE name = ?", arguments: [newName, now.timeIntervalSince1970, name])
        }
    }

    /// Removes `name`; refused when there is none.
    public func deleteTemplate(_ name: String) async throws {
        try await storedWrite { db in
            try db.execute(sql: "DELETE FROM template WHERE name = ?", arguments: [name])
            if db.changesCount == 0 { throw QuickMessageError.missing }
        }
    }

    private static func template(_ row: SQLiteRow) throws -> QuickMessage {
        let data: Data = try row["fields"]
        return QuickMessage(
            name: try row["name"], fields: try JSONDecoder().decode([String: JSONValue].self, from: data),
            createdAt: Date(timeIntervalSince1970: try row["createdAt"]), updatedAt: Date(timeIntervalSince1970: try row["updatedAt"]))
    }
}

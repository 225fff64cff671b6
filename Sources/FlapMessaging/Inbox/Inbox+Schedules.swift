import FlapStorage
import FoundationEssentials

/// Recurring messages kept in the inbox's database: their definitions (as JSON, read by the
/// schedules' own module) and when each last looked at the clock.
extension Inbox {
    /// Every schedule added over the API: name and definition, by name.
    public func storedSchedules() throws -> [(name: String, definition: Data)] {
        try database.read { db in
            try SQLiteRow.fetchAll(db, sql: "SELECT name, definition FROM schedule ORDER BY name").compactMap { row in
                try health.readable("schedule", in: path) { (try row["name"], try row["definition"]) }
            }
        }
    }

    /// Adds or replaces a schedule; returns whether it is new.
    @discardableResult
    public func storeSchedule(_ name: String, definition: Data, now: Date) async throws -> Bool {
        try await storedWrite { db in
            let exists = try Bool.fetchOne(db, sql: "SELECT 1 FROM schedule WHERE name = ?", arguments: [name]) ?? false
            try db.execute(
                sql: """
                    INSERT INTO schedule (name, definition, createdAt, updatedAt) VALUES (?, ?, ?, ?)
                    ON CONFLICT(name) DO UPDATE SET definition = excluded.definition, updatedAt = excluded.updatedAt
                    """, arguments: [name, definition, now.timeIntervalSince1970, now.timeIntervalSince1970])
            return !exists
        }
    }

    /// The random key schedule occurrences' ids are made with: 32 bytes from the system's random
    /// source, made at the first call and kept with the inbox, so a restart makes the same ids.
    public func occurrenceKey() async throws -> [UInt8] {
        try await storedWrite { db in
            if let kept = try Data.fetchOne(db, sql: "SELECT value FROM secret WHERE name = 'schedule-occurrences'"), kept.count == 32 {
                return [UInt8](kept)
            }
            var generator = SystemRandomNumberGenerator()
            let key = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            try db.execute(sql: "INSERT OR REPLACE INTO secret (name, value) VALUES ('schedule-occurrences', ?)", arguments: [Data(key)])
            return key
        }
    }

    /// Removes a schedule; false when there was none of that name.
    public func removeSchedule(_ name: String) async throws -> Bool {
        try await storedWrite { db in
            try db.execute(sql: "DELETE FROM schedule WHERE name = ?", arguments: [name])
            let removed = db.changesCount > 0
            try db.execute(sql: "DELETE FROM scheduleCheck WHERE name = ?", arguments: [name])
            return removed
        }
    }

    /// When each schedule last looked at the clock.
    public func scheduleChecks() throws -> [String: Date] {
        try database.read { db in
            var checks: [String: Date] = [:]
            for row in try SQLiteRow.fetchAll(db, sql: "SELECT name, checkedAt FROM scheduleCheck") {
                try health.readable("scheduleCheck", in: path) { checks[try row["name"]] = Date(timeIntervalSince1970: try row["checkedAt"]) }
            }
            return checks
        }
    }

    /// Records that each of `names` was looked at `date`, so a restart does not fire what was already looked at.
    public func recordScheduleChecks(_ names: [String], at date: Date) async throws {
        try await storedWrite { db in
            for name in names {
                try db.execute(
                    sql: "INSERT OR REPLACE INTO scheduleCheck (name, checkedAt) VALUES (?, ?)", arguments: [name, date.timeIntervalSince1970])
            }
        }
    }
}

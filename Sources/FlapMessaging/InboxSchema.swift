import GRDB

/// The inbox's tables, created and upgraded by GRDB migrations.
enum InboxSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "message") { t in
                t.column("id", .text).primaryKey()
                t.column("sender", .text).notNull().indexed()
                t.column("senderName", .text)
                t.column("source", .text).notNull()
                t.column("body", .blob).notNull()  // the accepted Message as JSON
                t.column("createdAt", .double).notNull()
                t.column("expiresAt", .double).notNull()
                t.column("receivedAt", .double).notNull()
                t.column("seq", .integer).notNull()  // arrival order, breaks createdAt ties
                t.column("status", .text).notNull()
                t.column("reason", .text)
                t.column("finalAt", .double).indexed()
            }
            try db.create(table: "slot") { t in
                t.column("sender", .text).primaryKey()
                t.column("messageId", .text).notNull().references("message", onDelete: .cascade)
            }
            // What each panel showed when it last came to rest, so a restart resumes from it.
            try db.create(table: "panelState") { t in
                t.column("panel", .text).primaryKey()
                t.column("codes", .blob).notNull()
                t.column("messageId", .text)
                t.column("updatedAt", .double).notNull()
            }
        }
        return migrator
    }
}

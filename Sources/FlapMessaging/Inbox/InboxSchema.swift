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
        migrator.registerMigration("v2: counts and rate buckets") { db in
            // Receipts counted by status as they change, so /v1/status reads five rows instead of
            // scanning every receipt. The triggers keep the counts in the same transactions.
            try db.execute(sql: """
                CREATE TABLE receiptCount (status TEXT PRIMARY KEY, n INTEGER NOT NULL);
                INSERT INTO receiptCount (status, n) VALUES ('accepted', 0), ('displayed', 0), ('superseded', 0), ('expired', 0), ('rejected', 0);
                UPDATE receiptCount SET n = (SELECT COUNT(*) FROM message WHERE message.status = receiptCount.status);
                CREATE TRIGGER messageInserted AFTER INSERT ON message BEGIN
                    UPDATE receiptCount SET n = n + 1 WHERE status = NEW.status;
                END;
                CREATE TRIGGER messageStatusChanged AFTER UPDATE OF status ON message WHEN OLD.status <> NEW.status BEGIN
                    UPDATE receiptCount SET n = n - 1 WHERE status = OLD.status;
                    UPDATE receiptCount SET n = n + 1 WHERE status = NEW.status;
                END;
                CREATE TRIGGER messageDeleted AFTER DELETE ON message BEGIN
                    UPDATE receiptCount SET n = n - 1 WHERE status = OLD.status;
                END;
                """)
            // Each sender's rate-limit bucket, so a restart does not refill an allowance.
            try db.create(table: "rateBucket") { t in
                t.column("sender", .text).primaryKey()
                t.column("tokens", .double).notNull()
                t.column("at", .double).notNull()
            }
        }
        migrator.registerMigration("v3: quick messages") { db in
            // Named templates: the fields of a message to send again (text or codes, alignment).
            try db.create(table: "template") { t in
                t.column("name", .text).primaryKey()
                t.column("fields", .blob).notNull()
                t.column("createdAt", .double).notNull()
                t.column("updatedAt", .double).notNull()
            }
        }
        migrator.registerMigration("v4: send later") { db in
            // A message sent for later waits as 'scheduled' until notBefore; the partial index
            // finds the next one due without scanning the receipts.
            try db.execute(sql: """
                ALTER TABLE message ADD COLUMN notBefore DOUBLE;
                CREATE INDEX messageScheduled ON message (notBefore) WHERE status = 'scheduled';
                INSERT INTO receiptCount (status, n) VALUES ('scheduled', 0), ('cancelled', 0);
                """)
        }
        migrator.registerMigration("v5: schedules") { db in
            // Recurring messages added over the API (the configuration file's are read at start),
            // and when each schedule last looked at the clock, so a restart neither repeats an
            // occurrence nor fires every one it missed.
            try db.create(table: "schedule") { t in
                t.column("name", .text).primaryKey()
                t.column("definition", .blob).notNull()
                t.column("createdAt", .double).notNull()
                t.column("updatedAt", .double).notNull()
            }
            try db.create(table: "scheduleCheck") { t in
                t.column("name", .text).primaryKey()
                t.column("checkedAt", .double).notNull()
            }
        }
        migrator.registerMigration("v6: arrival order index") { db in
            // The newest arrival is read at every start: with an index that is one page, not a
            // scan of every receipt kept.
            try db.execute(sql: "CREATE INDEX messageSeq ON message (seq)")
        }
        return migrator
    }
}

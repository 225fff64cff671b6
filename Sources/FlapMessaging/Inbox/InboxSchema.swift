import FlapStorage

/// The inbox's tables, created and upgraded by migrations.
enum InboxSchema {
    static var migrator: SQLiteMigrator {
        var migrator = SQLiteMigrator()
        migrator.registerMigration("v1") { db in
            // The tables as GRDB's table builder made them for earlier versions. A message's body
            // is the accepted Message as JSON; seq is the arrival order, which breaks createdAt ties.
            try db.execute(
                sql: """
                    CREATE TABLE "message" ("id" TEXT PRIMARY KEY, "sender" TEXT NOT NULL, "senderName" TEXT, \
                    "source" TEXT NOT NULL, "body" BLOB NOT NULL, "createdAt" DOUBLE NOT NULL, "expiresAt" DOUBLE NOT NULL, \
                    "receivedAt" DOUBLE NOT NULL, "seq" INTEGER NOT NULL, "status" TEXT NOT NULL, "reason" TEXT, "finalAt" DOUBLE);
                    CREATE INDEX "message_on_sender" ON "message"("sender");
                    CREATE INDEX "message_on_finalAt" ON "message"("finalAt");
                    CREATE TABLE "slot" ("sender" TEXT PRIMARY KEY, \
                    "messageId" TEXT NOT NULL REFERENCES "message"("id") ON DELETE CASCADE);
                    """)
            // What each panel showed when it last came to rest, so a restart resumes from it.
            try db.execute(
                sql: """
                    CREATE TABLE "panelState" ("panel" TEXT PRIMARY KEY, "codes" BLOB NOT NULL, "messageId" TEXT, "updatedAt" DOUBLE NOT NULL)
                    """)
        }
        migrator.registerMigration("v2: counts and rate buckets") { db in
            // Receipts counted by status as they change, so /v1/status reads five rows instead of
            // scanning every receipt. The triggers keep the counts in the same transactions.
            try db.execute(
                sql: """
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
            try db.execute(
                sql: """
                    CREATE TABLE "rateBucket" ("sender" TEXT PRIMARY KEY, "tokens" DOUBLE NOT NULL, "at" DOUBLE NOT NULL)
                    """)
        }
        migrator.registerMigration("v3: quick messages") { db in
            // Named templates: the fields of a message to send again (text or codes, alignment).
            try db.execute(
                sql: """
                    CREATE TABLE "template" ("name" TEXT PRIMARY KEY, "fields" BLOB NOT NULL, "createdAt" DOUBLE NOT NULL, "updatedAt" DOUBLE NOT NULL)
                    """)
        }
        migrator.registerMigration("v4: send later") { db in
            // A message sent for later waits as 'scheduled' until notBefore; the partial index
            // finds the next one due without scanning the receipts.
            try db.execute(
                sql: """
                    ALTER TABLE message ADD COLUMN notBefore DOUBLE;
                    CREATE INDEX messageScheduled ON message (notBefore) WHERE status = 'scheduled';
                    INSERT INTO receiptCount (status, n) VALUES ('scheduled', 0), ('cancelled', 0);
                    """)
        }
        migrator.registerMigration("v5: schedules") { db in
            // Recurring messages added over the API (the configuration file's are read at start),
            // and when each schedule last looked at the clock, so a restart neither repeats an
            // occurrence nor fires every one it missed.
            try db.execute(
                sql: """
                    CREATE TABLE "schedule" ("name" TEXT PRIMARY KEY, "definition" BLOB NOT NULL, "createdAt" DOUBLE NOT NULL, "updatedAt" DOUBLE NOT NULL)
                    """)
            try db.execute(
                sql: """
                    CREATE TABLE "scheduleCheck" ("name" TEXT PRIMARY KEY, "checkedAt" DOUBLE NOT NULL)
                    """)
        }
        migrator.registerMigration("v6: arrival order index") { db in
            // The newest arrival is read at every start: with an index that is one page, not a
            // scan of every receipt kept.
            try db.execute(sql: "CREATE INDEX messageSeq ON message (seq)")
        }
        migrator.registerMigration("v7: repeats and clears") { db in
            // A message that came without an id keeps what a copy of it would repeat (its old
            // `h-` id was exactly that), so a redelivery is recognised while a repeat after
            // something newer is a new message. The sender's newest message is found by
            // (sender, seq), which also serves every look-up by sender.
            try db.execute(
                sql: """
                    ALTER TABLE message ADD COLUMN repeatKey TEXT;
                    UPDATE message SET repeatKey = id WHERE id GLOB 'h-[0-9a-f]*' AND length(id) = 34;
                    CREATE INDEX messageRepeatKey ON message (repeatKey) WHERE repeatKey IS NOT NULL;
                    CREATE INDEX messageSenderSeq ON message (sender, seq);
                    DROP INDEX message_on_sender;
                    INSERT INTO receiptCount (status, n) VALUES ('cleared', 0);
                    """)
            // What each message said, short, kept with its receipt after its body is pruned, so
            // a list of receipts names messages by their text. Earlier messages whose body is
            // still kept get theirs.
            try db.execute(
                sql: """
                    ALTER TABLE message ADD COLUMN summary TEXT;
                    UPDATE message SET summary = substr(replace(json_extract(CAST(body AS TEXT), '$.content.text._0'), char(10), ' / '), 1, 80)
                        WHERE length(body) > 0 AND json_valid(CAST(body AS TEXT));
                    """)
            // Idempotency keys, each with the first answer to its request, kept a day.
            try db.execute(
                sql: """
                    CREATE TABLE idempotency (client TEXT NOT NULL, key TEXT NOT NULL, requestHash TEXT NOT NULL, \
                    answer BLOB NOT NULL, at DOUBLE NOT NULL, PRIMARY KEY (client, key)) WITHOUT ROWID
                    """)
        }
        migrator.registerMigration("v8: secrets") { db in
            // Random keys flapd makes once and keeps with the inbox, such as the one that makes
            // schedule occurrences' ids (which nobody may guess, or a message could take one's place).
            try db.execute(
                sql: """
                    CREATE TABLE secret (name TEXT PRIMARY KEY, value BLOB NOT NULL) WITHOUT ROWID
                    """)
        }
        return migrator
    }
}

import FlapCore
import FlapStorage
import FoundationEssentials

/// Runs operations inside the writer's transaction, each in a savepoint of its own, and
/// gathers what to announce once the transaction commits.
struct InboxWriter {
    let db: SQLiteConnection
    let rules: SenderRules
    /// The arrival order of the last message accepted.
    var seq: Int64
    var events: [InboxEvent] = []
    /// The slot changes made, in order, for the inbox's copy of the slots.
    var slotEdits: [SlotEdit] = []
    var slotsChanged: Bool { !slotEdits.isEmpty }
    /// Whether a message was sent for later, released or cancelled.
    private(set) var scheduleChanged = false
    /// Writes of this transaction made after the panels are told of its slot edits: the
    /// bodies of messages that show now (encoding one is a good part of a message's way to the
    /// board), and every write of a lone message that takes its slot. They commit with the
    /// rest, or nothing does.
    var lateWrites: [@Sendable (SQLiteConnection) throws -> Void] = []
    /// Whether an acceptance that takes its slot is decided by reads alone and all its writes
    /// come after the panels are told: true only for a transaction of one operation, where
    /// nothing after it reads what it wrote.
    var defersWrites = false

    init(db: SQLiteConnection, rules: SenderRules, seq: Int64) {
        self.db = db
        self.rules = rules
        self.seq = seq
    }

    /// Runs `operation` (one of the methods below); when it throws, nothing it did stays, and
    /// nothing of it is announced.
    mutating func run<T>(_ operation: (inout InboxWriter) throws -> T) throws -> T {
        let (eventsBefore, seqBefore, editsBefore, scheduleBefore) = (events.count, seq, slotEdits.count, scheduleChanged)
        let lateBefore = lateWrites.count
        do {
            return try db.inSavepoint { try operation(&self) }
        } catch {
            events.removeSubrange(eventsBefore...)
            seq = seqBefore
            slotEdits.removeSubrange(editsBefore...)
            scheduleChanged = scheduleBefore
            lateWrites.removeSubrange(lateBefore...)
            throw error
        }
    }

    // MARK: The operations

    /// With a `note`, the outcome is announced too.
    mutating func accept(
        _ message: Message, now: Date, note: SubmissionNote?, repetition: Repetition, claim: IdempotencyClaim?
    ) throws -> Acceptance {
        let acceptance = try accept(message, now: now, repetition: repetition, claim: claim)
        if let note { events.insert(.outcome(id: message.id, acceptance, note: note), at: events.count - finalsOf(acceptance)) }
        return acceptance
    }

    mutating func markDisplayed(_ id: String?, panel: String, codes: Data, now: Date) throws {
        if let id { try finish(id, .displayed, reason: nil, at: now) }
        try execute(
            "INSERT OR REPLACE INTO panelState (panel, codes, messageId, updatedAt) VALUES (?, ?, ?, ?)",
            [panel, codes, id, now.timeIntervalSince1970])
    }

    mutating func reject(_ id: String, reason: String, now: Date) throws {
        try finish(id, .rejected, reason: reason, at: now)
        try execute("DELETE FROM slot WHERE messageId = ?", [id])
        slotEdits.append(.remove(messageId: id))
    }

    /// How many slots expired.
    mutating func expire(now: Date) throws -> Int {
        let ids = try String.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT m.id FROM slot s JOIN message m ON m.id = s.messageId WHERE m.expiresAt <= ?
                    """), arguments: [now.timeIntervalSince1970])
        for id in ids {
            try finish(id, .expired, reason: nil, at: now)
            try execute("DELETE FROM slot WHERE messageId = ?", [id])
            slotEdits.append(.remove(messageId: id))
        }
        try RateBuckets.prune(db, now: now, perHour: rules.ratePerHour)
        try IdempotencyRecords.prune(db, now: now)
        return ids.count
    }

    /// Whether the slot held a message.
    mutating func clearSlot(_ sender: String, now: Date) throws -> Bool {
        guard let id = try String.fetchOne(db.cachedStatement(sql: "SELECT messageId FROM slot WHERE sender = ?"), arguments: [sender]) else {
            return false
        }
        try finish(id, .superseded, reason: "slot cleared", at: now)
        try execute("DELETE FROM slot WHERE sender = ?", [sender])
        slotEdits.append(.remove(messageId: id))
        return true
    }

    /// How many slots held a message.
    mutating func clearAllSlots(now: Date) throws -> Int {
        let slots = try String.fetchAll(db.cachedStatement(sql: "SELECT sender FROM slot"), arguments: [])
        for slot in slots { _ = try clearSlot(slot, now: now) }
        return slots.count
    }

    /// Scheduled messages whose instant has come take their slots; how many did.
    mutating func release(now: Date) throws -> Int {
        let rows = try SQLiteRow.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT id, body, seq FROM message WHERE status = 'scheduled' AND notBefore <= ? ORDER BY notBefore, seq
                    """), arguments: [now.timeIntervalSince1970])
        for row in rows {
            let message = try JSONDecoder().decode(Message.self, from: row["body"] as Data)
            try execute("UPDATE message SET status = 'accepted' WHERE id = ?", [message.id])
            try place(message, seq: try row["seq"], now: now, released: true)
        }
        if !rows.isEmpty { scheduleChanged = true }
        return rows.count
    }

    /// A scheduled message cancelled before its instant: its status after (cancelled, or what
    /// it already was), nil when unknown.
    mutating func cancel(_ id: String, now: Date) throws -> ReceiptStatus? {
        guard let status = try String.fetchOne(db.cachedStatement(sql: "SELECT status FROM message WHERE id = ?"), arguments: [id]) else {
            return nil
        }
        guard status == ReceiptStatus.scheduled.rawValue else { return ReceiptStatus(rawValue: status) }
        try finish(id, .cancelled, reason: "cancelled before its time", at: now)
        scheduleChanged = true
        return .cancelled
    }

    mutating func prune(before: Date, keep: Int) throws {
        // A message in a slot is kept whatever its age: it may be on a panel now.
        try db.execute(
            sql: """
                DELETE FROM message WHERE finalAt < ? AND id NOT IN (SELECT messageId FROM slot)
                """, arguments: [before.timeIntervalSince1970])
        // At most `keep` final receipts, the newest: a burst of a million messages in an
        // hour must not need a month to be forgotten.
        try db.execute(
            sql: """
                DELETE FROM message WHERE finalAt IS NOT NULL AND id NOT IN (SELECT messageId FROM slot)
                AND finalAt <= (SELECT finalAt FROM message WHERE finalAt IS NOT NULL ORDER BY finalAt DESC LIMIT 1 OFFSET ?)
                """, arguments: [keep])
        // A final message out of every slot is never shown again: its receipt stays, its body goes.
        try db.execute(
            sql: """
                UPDATE message SET body = x'' WHERE finalAt IS NOT NULL AND length(body) > 0 AND id NOT IN (SELECT messageId FROM slot)
                """)
    }

    /// The final receipt an acceptance itself announced (a message final on arrival), which
    /// must follow the outcome.
    private func finalsOf(_ acceptance: Acceptance) -> Int {
        if case .accepted(let receipt) = acceptance, receipt.status.isFinal { return 1 }
        return 0
    }

    private mutating func accept(_ message: Message, now: Date, repetition: Repetition, claim: IdempotencyClaim?) throws -> Acceptance {
        guard let claim else { return try accept(message, now: now, repetition: repetition) }
        if let prior = try IdempotencyRecords.prior(db, claim, now: now) {
            return prior.requestHash == claim.requestHash ? .replayed(prior.answer) : .keyReused
        }
        let acceptance = try accept(message, now: now, repetition: repetition)
        switch acceptance {
        case .accepted(let receipt):
            try IdempotencyRecords.remember(
                db, claim, answer: IdempotentAnswer(id: receipt.id, status: receipt.status, warnings: claim.warnings, duplicate: false), now: now)
        case .duplicate(let receipt):
            try IdempotencyRecords.remember(
                db, claim, answer: IdempotentAnswer(id: receipt.id, status: receipt.status, warnings: [], duplicate: true), now: now)
        default:
            break  // a refusal is not remembered: the same request may succeed later
        }
        return acceptance
    }

    private mutating func accept(_ given: Message, now: Date, repetition: Repetition) throws -> Acceptance {
        var message = given
        // A copy already committed, in this group or before: nothing changes, nothing is counted.
        // An id flapd made (the message has a repeat key) is random and new: only the key can match.
        if message.repeatKey == nil, let existing = try Self.fetchReceipt(db, id: message.id) {
            // An id a client chose is its sender's own: another sender's message with that id is
            // neither this one nor in its way (nor told of), so the message keeps it under its sender.
            guard existing.sender != message.sender.id else { return .duplicate(existing) }
            message.id = MessageID.scoped(message.id, sender: message.sender.id)
            if let own = try Self.fetchReceipt(db, id: message.id) {
                guard own.sender == message.sender.id else { return .refused("the id \(given.id) is in use; choose another") }
                return .duplicate(own)
            }
        }
        if let original = try original(of: message, repetition) { return .duplicate(original) }
        if let refusal = rules.refusal(for: message.sender.id) { return .refused(refusal) }
        let later = defersWrites
        if let wait = try RateBuckets.take(
            db, sender: message.sender.id, now: now, perHour: rules.ratePerHour,
            write: { sql, arguments in
                try write(sql, arguments, later: later)
            })
        {
            return .rateLimited(retryAfter: wait)
        }
        seq += 1
        let waits = message.notBefore.map { $0 > now } ?? false
        let receipt = Receipt(
            id: message.id, sender: message.sender.id, status: waits ? .scheduled : .accepted, reason: nil, receivedAt: now,
            createdAt: message.createdAt, expiresAt: message.expiresAt, notBefore: message.notBefore, finalAt: nil,
            text: message.summary)
        let repeatKey = repetition == .alwaysNew ? nil : message.repeatKey
        if !waits, defersWrites, case .takes(let current) = try slotTaking(by: message, now: now) {
            try placeLater(message, repeatKey: repeatKey, replacing: current, now: now)
            return .accepted(receipt)
        }
        // A message for later is read back by its release: its body is written at once. One
        // that shows now is written after the panels hear of it, in this transaction.
        let body = waits ? try JSONEncoder().encode(message) : Data()
        if !waits {
            lateWrites.append { [message] db in
                try db.cachedStatement(sql: "UPDATE message SET body = ? WHERE id = ?").execute(arguments: [
                    try JSONEncoder().encode(message), message.id
                ])
            }
        }
        try execute(
            Self.insertMessage, Self.row(of: message, body: body, now: now, seq: seq, status: waits ? .scheduled : .accepted, repeatKey: repeatKey))
        if waits {
            scheduleChanged = true
            return .accepted(receipt)
        }
        return .accepted(try place(message, seq: seq, now: now, released: false) ?? receipt)
    }

    /// Puts an accepted message in its slot (its sender's, or the temporary one), unless it has expired or the slot holds a
    /// message that shows from later; the message's final receipt when it did not get the slot.
    @discardableResult
    private mutating func place(_ message: Message, seq: Int64, now: Date, released: Bool) throws -> Receipt? {
        if message.expiresAt <= now {
            return try finish(message.id, .expired, reason: released ? "expired before its time came" : "expired before it arrived", at: now)
        }
        if message.clearsSlot {
            if let currentID = try String.fetchOne(
                db.cachedStatement(sql: "SELECT messageId FROM slot WHERE sender = ?"), arguments: [message.sender.id])
            {
                try finish(currentID, .superseded, reason: "slot cleared by \(message.id)", at: now)
                try execute("DELETE FROM slot WHERE sender = ?", [message.sender.id])
                slotEdits.append(.remove(messageId: currentID))
            }
            return try finish(message.id, .cleared, reason: "an empty text clears its sender's slot", at: now)
        }
        if let current = try SQLiteRow.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT m.id, MAX(m.createdAt, COALESCE(m.notBefore, m.createdAt)) AS showsFrom FROM slot s JOIN message m ON m.id = s.messageId WHERE s.sender = ?
                    """), arguments: [message.slotKey])
        {
            let currentID: String = try current["id"]
            if message.showsFrom.timeIntervalSince1970 < (try current["showsFrom"] as Double) {
                // A late older message never takes a slot back from a newer one.
                return try finish(message.id, .superseded, reason: "older than \(currentID) in the same slot", at: now)
            }
            try finish(currentID, .superseded, reason: "replaced by \(message.id)", at: now)
            try execute("UPDATE slot SET messageId = ? WHERE sender = ?", [message.id, message.slotKey])
        } else {
            try execute("INSERT INTO slot (sender, messageId) VALUES (?, ?)", [message.slotKey, message.id])
        }
        slotEdits.append(.fill(SlotEntry(message: message, seq: seq)))
        return nil
    }

    /// Gives `id` its final status if it has none yet, and announces it; the receipt, or nil
    /// when it was already final.
    @discardableResult
    private mutating func finish(_ id: String, _ status: ReceiptStatus, reason: String?, at now: Date) throws -> Receipt? {
        guard
            let row = try SQLiteRow.fetchAll(
                db.cachedStatement(
                    sql: """
                        UPDATE message SET status = ?, reason = ?, finalAt = ? WHERE id = ? AND status IN ('accepted', 'scheduled') RETURNING *
                        """), arguments: [status.rawValue, reason, now.timeIntervalSince1970, id]
            ).first
        else { return nil }
        let receipt = try Self.receipt(row)
        events.append(.final(receipt))
        return receipt
    }

    /// Runs `sql` through SQLite's prepared statement kept for it: compiling each statement
    /// anew cost more than the rest of an acceptance.
    func execute(_ sql: String, _ arguments: SQLiteArguments) throws {
        try db.cachedStatement(sql: sql).execute(arguments: arguments)
    }
}

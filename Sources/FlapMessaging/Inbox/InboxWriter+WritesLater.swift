import FlapCore
import FlapStorage
import FoundationEssentials

/// A lone message that takes its slot, decided by reads alone, with its writes made after the
/// panels are told (``InboxWriter/defersWrites``): the inserts and updates of an acceptance
/// took more than half its statements' time, on the way from a request to a moving board.
extension InboxWriter {
    /// Whether a message would take its slot, read without writing.
    enum SlotTaking {
        /// It takes the slot, from the message in it (nil: the slot is empty).
        case takes(current: SQLiteRow?)
        /// It does not (expired, clearing its slot, or older than the slot's message).
        case doesNot
    }

    static let insertMessage = """
        INSERT INTO message (id, sender, senderName, source, body, createdAt, expiresAt, notBefore, receivedAt, seq, status, repeatKey, summary)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    /// The values of ``insertMessage`` for `message`.
    static func row(of message: Message, body: Data, now: Date, seq: Int64, status: ReceiptStatus, repeatKey: String?) -> SQLiteArguments {
        [
            message.id, message.sender.id, message.sender.name, message.source.rawValue, body,
            message.createdAt.timeIntervalSince1970, message.expiresAt.timeIntervalSince1970,
            message.notBefore?.timeIntervalSince1970, now.timeIntervalSince1970, seq, status.rawValue, repeatKey, message.summary
        ]
    }

    /// Whether `message`, arriving at `now` to show now, takes its slot, as `place` decides it.
    func slotTaking(by message: Message, now: Date) throws -> SlotTaking {
        if message.expiresAt <= now || message.clearsSlot { return .doesNot }
        let current = try SQLiteRow.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT m.*, MAX(m.createdAt, COALESCE(m.notBefore, m.createdAt)) AS showsFrom FROM slot s JOIN message m ON m.id = s.messageId WHERE s.sender = ?
                    """), arguments: [message.slotKey])
        if let current, message.showsFrom.timeIntervalSince1970 < (try current["showsFrom"] as Double) { return .doesNot }
        return .takes(current: current)
    }

    /// Puts `message` in its slot in place of `current`'s message: the slot's edit and the
    /// replaced message's final receipt now, every write after the panels are told.
    mutating func placeLater(_ message: Message, repeatKey: String?, replacing current: SQLiteRow?, now: Date) throws {
        let seq = seq
        lateWrites.append { db in
            let row = Self.row(of: message, body: try JSONEncoder().encode(message), now: now, seq: seq, status: .accepted, repeatKey: repeatKey)
            try db.cachedStatement(sql: Self.insertMessage).execute(arguments: row)
        }
        if let current {
            var replaced = try Self.receipt(current)
            if !replaced.status.isFinal {
                replaced.status = .superseded
                replaced.reason = "replaced by \(message.id)"
                // As it reads back from the file, to the last bit, as `finish` announces it.
                replaced.finalAt = Date(timeIntervalSince1970: now.timeIntervalSince1970)
                events.append(.final(replaced))
                try write(
                    "UPDATE message SET status = ?, reason = ?, finalAt = ? WHERE id = ? AND status IN ('accepted', 'scheduled')",
                    [replaced.status.rawValue, replaced.reason, now.timeIntervalSince1970, replaced.id], later: true)
            }
            try write("UPDATE slot SET messageId = ? WHERE sender = ?", [message.id, message.slotKey], later: true)
        } else {
            try write("INSERT INTO slot (sender, messageId) VALUES (?, ?)", [message.slotKey, message.id], later: true)
        }
        slotEdits.append(.fill(SlotEntry(message: message, seq: seq)))
    }

    /// Runs `sql` now, or `later`, once the panels have been told, in this transaction.
    mutating func write(_ sql: String, _ arguments: SQLiteArguments, later: Bool) throws {
        guard later else { return try execute(sql, arguments) }
        lateWrites.append { db in try db.cachedStatement(sql: sql).execute(arguments: arguments) }
    }
}

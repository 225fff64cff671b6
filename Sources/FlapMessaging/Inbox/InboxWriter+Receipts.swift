import FlapCore
import FlapStorage
import FoundationEssentials

/// The receipts the writer reads back: a message's by its id, and the earlier one a message
/// repeats.
extension InboxWriter {
    /// The earlier message `message` is a copy of, when it came without an id and is not new:
    /// the sender's newest message, still current (in its slot or waiting for its time), with the
    /// same repeat key; or, when the transport says it delivered it before, any kept message with
    /// that key. Anything newer from the sender in between makes the same content a new message.
    func original(of message: Message, _ repetition: Repetition) throws -> Receipt? {
        guard let key = message.repeatKey, repetition != .alwaysNew else { return nil }
        if repetition == .copyOfAnyEarlier {
            return try SQLiteRow.fetchOne(
                db.cachedStatement(sql: "SELECT * FROM message WHERE repeatKey = ? ORDER BY seq DESC LIMIT 1"),
                arguments: [key]
            ).map(Self.receipt)
        }
        guard
            let newest = try SQLiteRow.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT m.*, s.sender IS NOT NULL AS inSlot FROM message m LEFT JOIN slot s ON s.messageId = m.id
                        WHERE m.sender = ? ORDER BY m.seq DESC LIMIT 1
                        """), arguments: [message.sender.id])
        else { return nil }
        let inSlot: Bool = try newest["inSlot"]
        let status: String = try newest["status"]
        let current = inSlot || status == ReceiptStatus.scheduled.rawValue
        guard current, (try newest["repeatKey"] as String?) == key else { return nil }
        return try Self.receipt(newest)
    }

    static func fetchReceipt(_ db: SQLiteConnection, id: String) throws -> Receipt? {
        try SQLiteRow.fetchOne(db.cachedStatement(sql: "SELECT * FROM message WHERE id = ?"), arguments: [id]).map(receipt)
    }

    static func receipt(_ row: SQLiteRow) throws(SQLiteRowError) -> Receipt {
        Receipt(
            id: try row["id"], sender: try row["sender"], status: ReceiptStatus(rawValue: try row["status"]) ?? .accepted,
            reason: try row["reason"], receivedAt: Date(timeIntervalSince1970: try row["receivedAt"]),
            createdAt: Date(timeIntervalSince1970: try row["createdAt"]), expiresAt: Date(timeIntervalSince1970: try row["expiresAt"]),
            notBefore: (try row["notBefore"] as Double?).map(Date.init(timeIntervalSince1970:)),
            finalAt: (try row["finalAt"] as Double?).map(Date.init(timeIntervalSince1970:)), text: try row["summary"])
    }
}

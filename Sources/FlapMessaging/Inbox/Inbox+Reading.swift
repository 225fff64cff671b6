import FlapCore
import FlapPrimitives
import FlapStorage
import FoundationEssentials

extension Inbox {
    /// The soonest instant a scheduled message is due.
    public func nextRelease() async throws -> Date? {
        try await database.read { db in
            try Double.fetchOne(db, sql: "SELECT MIN(notBefore) FROM message WHERE status = 'scheduled'")
                .map { Date(timeIntervalSince1970: $0) }
        }
    }

    /// The messages waiting for their instant, soonest first, with what each will show.
    public func scheduled(limit: Int = 1000) async throws -> [(receipt: Receipt, message: Message)] {
        let (health, path) = (self.health, self.path)
        return try await database.read { db in
            try SQLiteRow.fetchAll(db, sql: "SELECT * FROM message WHERE status = 'scheduled' ORDER BY notBefore, seq LIMIT ?", arguments: [limit])
                .compactMap { row in
                    try health.readable("message", in: path) {
                        (try InboxWriter.receipt(row), try JSONDecoder().decode(Message.self, from: row["body"] as Data))
                    }
                }
        }
    }

    /// The soonest time a live slot expires.
    public func nextExpiry() async throws -> Date? {
        try await database.read { db in
            try Double.fetchOne(db, sql: "SELECT MIN(m.expiresAt) FROM slot s JOIN message m ON m.id = s.messageId")
                .map { Date(timeIntervalSince1970: $0) }
        }
    }

    /// The receipt of message `id`, or nil if the inbox never accepted it.
    public func receipt(id: String) async throws -> Receipt? {
        try await database.read { db in try InboxWriter.fetchReceipt(db, id: id) }
    }

    /// The receipt of `sender`'s message `id`: the id as given, or as `sender` keeps its own
    /// chosen ids (``MessageID/scoped(_:sender:)``); nil when `sender` has no such message, even
    /// when another sender has.
    public func receipt(id: String, of sender: String) async throws -> Receipt? {
        try await database.read { db in
            for candidate in [id, MessageID.scoped(id, sender: sender)] {
                if let receipt = try InboxWriter.fetchReceipt(db, id: candidate), receipt.sender == sender { return receipt }
            }
            return nil
        }
    }

    /// The receipts of the latest `limit` messages accepted, newest first (by rowid: the order of
    /// insertion, with no index to keep up); with `sender`, that sender's only (by its arrival
    /// order, through the (sender, seq) index).
    public func recentReceipts(limit: Int, sender: String? = nil) async throws -> [Receipt] {
        let (health, path) = (self.health, self.path)
        return try await database.read { db in
            let rows =
                if let sender {
                    try SQLiteRow.fetchAll(db, sql: "SELECT * FROM message WHERE sender = ? ORDER BY seq DESC LIMIT ?", arguments: [sender, limit])
                } else {
                    try SQLiteRow.fetchAll(db, sql: "SELECT * FROM message ORDER BY rowid DESC LIMIT ?", arguments: [limit])
                }
            return try rows.compactMap { row in try health.readable("message", in: path) { try InboxWriter.receipt(row) } }
        }
    }

    /// Counts of receipts by status (kept as they change: no scan of the receipts).
    public func counts() async throws -> [ReceiptStatus: Int] {
        let (health, path) = (self.health, self.path)
        return try await database.read { db in
            var counts: [ReceiptStatus: Int] = [:]
            for row in try SQLiteRow.fetchAll(db, sql: "SELECT status, n FROM receiptCount WHERE n > 0") {
                try health.readable("receiptCount", in: path) {
                    if let status = ReceiptStatus(rawValue: try row["status"]) { counts[status] = try row["n"] }
                }
            }
            return counts
        }
    }

    /// What `panel` showed when it last came to rest, and the message it showed.
    public func panelState(_ panel: String) async throws -> (codes: [CharacterCode], messageId: String?)? {
        let (health, path) = (self.health, self.path)
        return try await database.read { db in
            guard let row = try SQLiteRow.fetchOne(db, sql: "SELECT codes, messageId FROM panelState WHERE panel = ?", arguments: [panel]) else {
                return nil
            }
            // A state that cannot be read is no state: the panel starts from blank.
            return try health.readable("panelState", in: path) {
                let bytes: Data = try row["codes"]
                return (bytes.compactMap { CharacterCode(Int($0)) }, try row["messageId"])
            }
        }
    }
}

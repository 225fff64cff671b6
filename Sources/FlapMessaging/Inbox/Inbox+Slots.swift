import FlapStorage
import FoundationEssentials
import Synchronization

extension Inbox {
    /// Every live slot's message, oldest slot first (by when each shows from, then arrival).
    /// A group's edits are here from the moment its commit starts. Read without entering the
    /// inbox's actor: a panel woken by a message does not wait for the writer's turn to end.
    public nonisolated func slots() async throws -> [Message] {
        try await loadedSlots().messages
    }

    /// How many senders have a live slot.
    public nonisolated func slotCount() async throws -> Int {
        try await loadedSlots().count
    }

    /// The slots from the copy kept in step with the writer; read from the database the first
    /// time (and after a failed commit), again if the slots changed while that read was under way.
    nonisolated func loadedSlots() async throws -> SlotCache {
        while true {
            let (cached, generation) = slotState.withLock { ($0.cache, $0.generation) }
            if let cached { return cached }
            let (health, path) = (self.health, self.path)
            let entries = try await database.read { db in
                try SQLiteRow.fetchAll(db, sql: "SELECT m.body, m.seq FROM slot s JOIN message m ON m.id = s.messageId").compactMap { row in
                    try health.readable("message", in: path) {
                        SlotEntry(message: try JSONDecoder().decode(Message.self, from: row["body"] as Data), seq: try row["seq"])
                    }
                }
            }
            if let kept = slotState.withLock({ $0.keep(entries, readAt: generation) }) { return kept }
        }
    }
}

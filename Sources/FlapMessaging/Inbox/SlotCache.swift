import FoundationEssentials

/// A live slot's message with its arrival order.
struct SlotEntry: Sendable {
    var message: Message
    var seq: Int64
}

/// One change the writer made to the slots.
enum SlotEdit: Sendable {
    /// The sender's slot now holds this message.
    case fill(SlotEntry)
    /// The slot holding this message is empty.
    case remove(messageId: String)
}

/// The inbox's copy of the live slots, kept in step with the writer's commits, so that
/// choosing what to show does not read and decode every slot's message after each commit.
struct SlotCache: Sendable {
    /// By slot: a sender's id, or the temporary messages' slot.
    private var bySender: [String: SlotEntry]

    init(_ entries: [SlotEntry]) {
        bySender = Dictionary(entries.map { ($0.message.slotKey, $0) }, uniquingKeysWith: { $1 })
    }

    mutating func apply(_ edits: [SlotEdit]) {
        for edit in edits {
            switch edit {
            case .fill(let entry):
                bySender[entry.message.slotKey] = entry
            case .remove(let id):
                if let sender = bySender.first(where: { $0.value.message.id == id })?.key { bySender[sender] = nil }
            }
        }
    }

    /// Oldest slot first: by when each shows from (createdAt, or a later notBefore), then arrival.
    var messages: [Message] {
        bySender.values.sorted { ($0.message.showsFrom, $0.seq) < ($1.message.showsFrom, $1.seq) }.map(\.message)
    }

    var count: Int { bySender.count }
}

/// The inbox's slot cache as the writer and the readers share it.
struct SlotState: Sendable {
    /// The live slots, once first read.
    private(set) var cache: SlotCache?
    /// Counts changes to the slots, so a read that overlapped one is not cached.
    private(set) var generation = 0

    /// Takes a group's edits before its commit, if the slots have been read (else they are read
    /// from the database once it is committed); true when taken.
    mutating func applyEarly(_ edits: [SlotEdit]) -> Bool {
        guard !edits.isEmpty, cache != nil else { return false }
        apply(edits)
        return true
    }

    /// Takes a committed group's edits.
    mutating func apply(_ edits: [SlotEdit]) {
        generation += 1
        cache?.apply(edits)
    }

    /// Drops the slots (edits taken early whose commit failed): the next read takes them from
    /// the database.
    mutating func forget() {
        generation += 1
        cache = nil
    }

    /// Keeps `entries`, read from the database when the generation was `generation`, unless the
    /// slots changed meanwhile; the slots as kept, or nil to read again.
    mutating func keep(_ entries: [SlotEntry], readAt generation: Int) -> SlotCache? {
        if cache == nil, generation == self.generation { cache = SlotCache(entries) }
        return cache
    }
}

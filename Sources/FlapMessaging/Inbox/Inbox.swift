import FlapCore
import FlapPrimitives
import FlapStorage
import FoundationEssentials
import Synchronization

/// The messages waiting to be shown, in SQLite (WAL, synchronous FULL): one slot per sender,
/// a receipt for every accepted message.
///
/// Every change is committed before its call returns, so a caller that acknowledges after
/// `accept` never acknowledges what a power cut could lose. Changes are committed in groups
/// (group commit): one writer takes every operation queued while the previous transaction was
/// committing and commits them together, in the order they arrived, with one fsync. A lone
/// operation starts at once; it never waits for company. Each operation runs in a savepoint of
/// its own, so one that fails does not fail the others in its group.
public actor Inbox {
    let database: SQLiteDatabase
    /// The database file, as storage faults name it.
    public nonisolated let path: String
    /// Told of every write that failed for the storage's sake, and of every one that succeeded.
    public nonisolated let health: StorageHealth
    var rules: SenderRules
    var seq: Int64
    var queue: [QueuedOperation] = []
    /// The task committing the queue, while there is one; it ends when the queue is empty.
    var writer: Task<Void, Never>?
    /// The live slots as the writer left them, once first read; shared with the thread that
    /// commits, which gives a group's edits before its fsync (``write()``).
    let slotState = Mutex(SlotState())
    /// Acceptances since the inbox last pruned itself.
    var acceptedSincePrune: Int64 = 0
    /// Transactions the writer has committed since the inbox was opened (each one fsync).
    public internal(set) var transactionsCommitted = 0
    /// Everyone watching the slots change (each panel's coordinator): each its own stream, so
    /// one panel waking does not take the wake-up from another.
    let changeWatchers = Watchers<Void>()
    let (scheduleStream, scheduleContinuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    var eventContinuation: AsyncStream<InboxEvent>.Continuation?

    /// Each connection's page cache.
    static let pageCacheKiB = 512

    /// The most operations one transaction commits; more wait for the next.
    static let largestGroup = 512

    /// Opens (or creates) the inbox at `path`.
    /// Storage faults are told to `health` and thrown as ``StorageFault``s.
    public init(path: String, rules: SenderRules = SenderRules(), health: StorageHealth = StorageHealth()) throws {
        self.path = path
        self.health = health
        do {
            // Reads are short (a board, a status, a receipt): two readers beside the writer suffice.
            database = try SQLiteDatabase(path: path, readers: 2) { db in
                // FULL: a commit survives power loss, not only a crash of flapd.
                try db.execute(sql: "PRAGMA synchronous = FULL")
                // SQLite's default page cache is 2 MiB a connection, kept full once used; the
                // working set (slots, the newest receipts, the index pages) fits in far less, and
                // what falls out is in the kernel's page cache anyway.
                try db.execute(sql: "PRAGMA cache_size = -\(Self.pageCacheKiB)")
                // After a checkpoint the WAL is cut back to 4 MiB rather than keeping its largest size.
                try db.execute(sql: "PRAGMA journal_size_limit = \(4 << 20)")
            }
            try InboxSchema.migrator.migrate(database)
        } catch {
            throw StorageFault(error, path: path) ?? error
        }
        self.rules = rules
        seq = try database.read { db in try Int64.fetchOne(db, sql: "SELECT MAX(seq) FROM message") ?? 0 }
    }

    /// Signals after every change to slots (acceptance, expiry, deletion).
    public nonisolated func changes() -> AsyncStream<Void> { changeWatchers.watch(bufferingPolicy: .bufferingNewest(1)) }

    /// Signals every change to slots on `wake`, a stream of the caller's, until it ends.
    public nonisolated func changes(into wake: AsyncStream<Void>.Continuation) { changeWatchers.forward(to: wake) }

    /// Signals after a message is sent for later, released or cancelled. One reader.
    public nonisolated var scheduleChanges: AsyncStream<Void> { scheduleStream }

    /// Outcomes of announced submissions and every receipt as it becomes final, in commit
    /// order, each after its commit. One reader (the MQTT bridge publishes them); nothing is
    /// kept for announcement until it asks, and at most the newest 10 000 while it lags.
    public func events() -> AsyncStream<InboxEvent> {
        eventContinuation?.finish()
        let (stream, continuation) = AsyncStream.makeStream(of: InboxEvent.self, bufferingPolicy: .bufferingNewest(10_000))
        eventContinuation = continuation
        return stream
    }

    /// Replaces the sender rules. Buckets keep their tokens (at most the new rate).
    public func update(rules: SenderRules) {
        self.rules = rules
    }

    /// Takes `message` into the inbox at `now`. Committed when this returns. With a `note`, the
    /// outcome is announced on ``events()`` too.
    public func accept(
        _ message: Message, now: Date, note: SubmissionNote? = nil,
        repetition: Repetition = .newUnlessCurrent, claim: IdempotencyClaim? = nil
    ) async throws -> Acceptance {
        try await queueAccept(message, now: now, note: note, repetition: repetition, claim: claim).value
    }

    /// Queues `message` behind everything queued before it and returns at once; its
    /// acceptance arrives with its commit. Lets a transport take messages in order while
    /// their commits are grouped. The message is encoded for storage here, on the caller's
    /// task, so that work runs beside the writer rather than in it.
    /// `repetition` says how a message without an id is told from a copy of an earlier one; a
    /// `claim` (an idempotency key) answers a request made again with its first answer.
    public nonisolated func queueAccept(
        _ message: Message, now: Date, note: SubmissionNote? = nil,
        repetition: Repetition = .newUnlessCurrent, claim: IdempotencyClaim? = nil,
        committed: (@Sendable (Acceptance) -> Void)? = nil
    ) async -> PendingAcceptance {
        PendingAcceptance(
            result: await enqueue(committed: committed) {
                try $0.accept(message, now: now, note: note, repetition: repetition, claim: claim)
            })
    }

    /// Records that `id` finished showing on `panel` as `board` at `now` (final: displayed),
    /// and what the panel shows, in one transaction.
    public func markDisplayed(_ id: String?, panel: String, board: Board, now: Date) async throws {
        let codes = Data(board.codes.map(\.rawValue))
        try await perform { try $0.markDisplayed(id, panel: panel, codes: codes, now: now) }
    }

    /// Gives `id` the final status rejected with `reason` (it cannot be shown).
    public func reject(_ id: String, reason: String, now: Date) async throws {
        try await perform { try $0.reject(id, reason: reason, now: now) }
    }

    /// Clears slots whose message expired by `now`; returns how many.
    @discardableResult
    public func expire(now: Date) async throws -> Int {
        try await perform { try $0.expire(now: now) }
    }

    /// Empties `sender`'s slot; its message, if not yet shown, is superseded. False if it was empty.
    public func clearSlot(_ sender: String, now: Date) async throws -> Bool {
        try await perform { try $0.clearSlot(sender, now: now) }
    }

    /// Empties every slot, the temporary message's too (the board goes blank); how many held a message.
    public func clearAllSlots(now: Date) async throws -> Int {
        try await perform { try $0.clearAllSlots(now: now) }
    }

    /// How long final receipts are kept.
    public static let receiptRetention: TimeInterval = 30 * 86400
    /// The most final receipts kept, however recent.
    public static let mostFinalReceipts = 50_000
    /// Every how many acceptances the inbox prunes itself, between its hourly housekeeping.
    static let pruneEvery = 5_000

    /// Forgets final receipts older than `before` and all but the newest `keep`, and the bodies
    /// of final messages no slot holds, so the database stays the size its retention makes it;
    /// then checkpoints the WAL and truncates it.
    public func prune(before: Date, keep: Int = Inbox.mostFinalReceipts) async throws {
        try await perform { try $0.prune(before: before, keep: keep) }
        try await checkpoint()
    }

    /// Copies the WAL into the database and empties it (readers permitting): the WAL otherwise
    /// keeps the size of the largest burst it ever took.
    public func checkpoint() async throws {
        await writerIdle()
        try stored { try database.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) } }
    }

    /// Queues `operation` and waits for its commit.
    func perform<T: Sendable>(_ operation: @escaping @Sendable (inout InboxWriter) throws -> T) async throws -> T {
        try await enqueue(operation).value
    }

    /// Queues `operation` for the writer, starting the writer if it is idle; its answer comes
    /// once the group it is written in commits. (Internal for the tests, which queue many in
    /// one turn of the actor to see them grouped whatever the machine's speed.)
    /// `committed` is told the answer as its commit is answered, before its caller.
    func enqueue<T: Sendable>(
        committed: (@Sendable (T) -> Void)? = nil, _ operation: @escaping @Sendable (inout InboxWriter) throws -> T
    ) -> Pending<T> {
        let pending = Pending<T>()
        queue.append(
            QueuedOperation(
                run: { writer in
                    let result = Result { try writer.run(operation) }
                    return {
                        if let committed, case .success(let answer) = result { committed(answer) }
                        pending.fulfil(result)
                    }
                },
                fail: { pending.fulfil(.failure($0)) }))
        // Started at once, on this turn of the actor: the commit begins without waiting for a
        // thread to pick the writer up (what arrives meanwhile forms the next group).
        if writer == nil { writer = Task.immediate { await self.write() } }
        return pending
    }

    /// An operation waiting for the writer: run inside the group's transaction, it gives what
    /// answers its caller once the transaction commits; `fail` answers when it does not.
    struct QueuedOperation: Sendable {
        let run: @Sendable (inout InboxWriter) -> @Sendable () -> Void
        let fail: @Sendable (any Error) -> Void
    }

    /// Returns once every queued operation is committed (flapd stopping).
    public func finishWriting() async {
        await writer?.value
    }

    /// Runs a write, telling `health` how it went; a storage fault is thrown as a ``StorageFault``.
    func stored<T>(_ write: () async throws -> T) async throws -> T {
        try await health.recording(path: path, write)
    }

    /// ``stored(_:)`` for work done at once, outside the group commit.
    func stored<T>(_ work: () throws -> T) throws -> T {
        try health.recording(path: path, work)
    }

    /// A write of quick messages or schedules, in its turn with the messages (a group's
    /// transaction stays open while its commit is under way, so nothing writes beside it).
    func storedWrite<T: Sendable>(_ updates: @escaping @Sendable (SQLiteConnection) throws -> T) async throws -> T {
        try await perform { writer in try updates(writer.db) }
    }

    /// An acceptance on its way to the disk.
    public struct PendingAcceptance: Sendable {
        let result: Pending<Acceptance>
        /// The acceptance, once committed.
        public var value: Acceptance {
            get async throws { try await result.value }
        }
    }

}

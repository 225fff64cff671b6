import FlapPrimitives
import FlapStorage
import FoundationEssentials
import Synchronization

extension Inbox {
    /// The most operations a group may hold to run its statements on the thread that queued it
    /// (a message or two, as they come one at a time); a larger one runs them on the database's
    /// own thread, so a burst does not hold a thread of Swift's pool.
    static let smallGroup = 8

    /// Commits queued operations, a group per transaction, until none are left. A group's slot
    /// edits reach the panels as soon as its statements have run, so a board starts moving while
    /// the rest is written (its messages' bodies; all of a lone message's writes) and the disk
    /// catches up (undone if that fails); its callers are answered, and its announcements go
    /// out, only once it is committed, in commit order. A small group's statements run here,
    /// on the thread that queued it, and the rest of it on the database's thread, handed over
    /// before the panels are told: the panel's task, woken by the edits, then runs on this
    /// thread, already awake, rather than waiting for another to wake.
    func write() async {
        while !queue.isEmpty {
            let group = Array(queue.prefix(Self.largestGroup))
            queue.removeFirst(group.count)
            let (rules, firstSeq) = (self.rules, self.seq)
            let early = Atomic(false)
            let statements: @Sendable (SQLiteConnection) throws -> WrittenGroup = { db in
                var writer = InboxWriter(db: db, rules: rules, seq: firstSeq)
                writer.defersWrites = group.count == 1
                let answers = group.map { $0.run(&writer) }
                return WrittenGroup(
                    answers: answers, events: writer.events, seq: writer.seq, slotEdits: writer.slotEdits,
                    scheduleChanged: writer.scheduleChanged, lateWrites: writer.lateWrites)
            }
            let beforeCommit: @Sendable (WrittenGroup) -> Void = { [changeWatchers] written in
                guard self.slotState.withLock({ $0.applyEarly(written.slotEdits) }) else { return }
                early.store(true, ordering: .relaxed)
                changeWatchers.yield(())
            }
            let finishing: @Sendable (WrittenGroup, SQLiteConnection) throws -> Void = { written, db in
                for write in written.lateWrites { try write(db) }
            }
            do {
                let written = try await stored {
                    if group.count <= Self.smallGroup {
                        // Nothing else writes meanwhile: `storedWrite` and `checkpoint` wait for the writer.
                        try await database.writeStartingHere(statements, beforeCommit: beforeCommit, finishing: finishing)
                    } else {
                        try await database.write(statements, beforeCommit: beforeCommit, finishing: finishing)
                    }
                }
                committed(written, early: early.load(ordering: .relaxed))
            } catch {
                if early.load(ordering: .relaxed) {
                    // What the panels were given early never happened: they read the slots again.
                    slotState.withLock { $0.forget() }
                    changeWatchers.yield(())
                }
                for operation in group { operation.fail(error) }
            }
            if acceptedSincePrune >= Self.pruneEvery, queue.isEmpty {
                acceptedSincePrune = 0
                let before = Date().addingTimeInterval(-Self.receiptRetention)
                _ = enqueue { try $0.prune(before: before, keep: Self.mostFinalReceipts) }
            }
        }
        writer = nil
    }

    /// A group is committed: announced, the slots told (unless they were early), its callers answered.
    private func committed(_ written: WrittenGroup, early: Bool) {
        acceptedSincePrune += written.seq - seq
        seq = written.seq
        transactionsCommitted += 1
        if let eventContinuation { for event in written.events { eventContinuation.yield(event) } }
        if !written.slotEdits.isEmpty, !early {
            slotState.withLock { $0.apply(written.slotEdits) }
            changeWatchers.yield(())
        }
        if written.scheduleChanged { scheduleContinuation.yield() }
        for answer in written.answers { answer() }
    }

    /// Returns once no group is being written (its transaction open), without leaving the actor
    /// after that: what the caller then does on the writing connection runs alone.
    func writerIdle() async {
        while let writer { await writer.value }
    }

    struct WrittenGroup: Sendable {
        var answers: [@Sendable () -> Void]
        var events: [InboxEvent]
        var seq: Int64
        var slotEdits: [SlotEdit]
        var scheduleChanged: Bool
        var lateWrites: [@Sendable (SQLiteConnection) throws -> Void]
    }
}

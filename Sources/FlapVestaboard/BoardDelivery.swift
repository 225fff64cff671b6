import FlapCore
import FlapPrimitives
import FlapStorage
import FoundationEssentials
import Logging

/// Writes one panel's boards to its Vestaboard from the delivery queue, one at a time:
/// - a failed attempt is retried 2, 4, 8, 16 and 32 s later (five retries); 400, 401 and 403
///   are final; 429 waits as long as Retry-After says; 5xx, timeouts and refused or dropped
///   connections are retried;
/// - through the cloud, writes are spaced 15 s apart (its own limit: a write sooner is answered
///   as shown and dropped), except `immediate` ones, which are forced past it;
/// - `conflict-aware` reads the board first, `optimistic` reads it back after writing;
/// - a write found half-done at start (flapd stopped mid-write) is read back before it is sent
///   again, so a board is never written twice for one delivery when it can be read;
/// - only a panel's newest board is written: a newer one supersedes an older one waiting for its
///   first attempt or for a retry, and a board the panel already shows (flapd's last write,
///   read back to check nobody changed it since) is not written again.
public actor BoardDelivery<C: Clock<Duration>> where C: Sendable {
    /// The panel it writes for.
    public nonisolated let panel: String
    /// Which Note of an array this worker writes, 1 first; nil for a whole board.
    public nonisolated let note: Int?
    /// The queue's name for this worker's writes: the panel's id, or `hall#2` for its second Note.
    public nonisolated var queueKey: String { note.map { "\(panel)#\($0)" } ?? panel }
    /// The board's API client.
    public nonisolated let client: VestaboardClient
    private let queue: DeliveryQueue
    private let clock: C
    private let now: @Sendable () -> Date
    private let onConflict: ConflictChoice
    private let logger: Logger
    /// Someone waiting for a new board, a retry or a cancel; set when one came with no one waiting.
    /// Wakes the worker when a board arrives, when asked, or when its time is up.
    private let signal = WakeSignal()
    private let (finished, finishing) = AsyncStream.makeStream(of: Delivery.self)

    /// What status pages show of the board.
    public struct Health: Sendable, Equatable {
        /// Whether the last attempt reached the board; nil before the first.
        public var reachable: Bool?
        /// When a write last succeeded.
        public var lastSuccess: Date?
        /// Why the last attempt failed, if it did.
        public var lastError: String?
    }
    /// The board as status pages show it.
    public private(set) var health = Health()
    /// Whether the worker waits with nothing to write (and nothing found half-sent at start).
    private(set) var idle = false
    /// A write ``send(_:transition:strategy:messageId:)`` queued already begun, for the worker.
    private var handedOver: Int64?
    /// Told of every delivery as it becomes final (for metrics).
    private var observer: (@Sendable (Delivery) -> Void)?

    /// Tells `observer` of each delivery as its state changes (the metrics).
    public func observe(_ observer: @escaping @Sendable (Delivery) -> Void) { self.observer = observer }

    /// How long each retry waits after a failed attempt.
    public static var retryDelays: [Duration] { [.seconds(2), .seconds(4), .seconds(8), .seconds(16), .seconds(32)] }

    /// The worker writing `panel`'s boards (its Note `note` of an array) from `queue` through `client`.
    public init(
        panel: String, note: Int? = nil, client: VestaboardClient, queue: DeliveryQueue, clock: C, now: @escaping @Sendable () -> Date,
        onConflict: ConflictChoice = .refuse, logger: Logger
    ) {
        self.panel = panel
        self.note = note
        self.client = client
        self.queue = queue
        self.clock = clock
        self.now = now
        self.onConflict = onConflict
        self.logger = logger
    }

    /// Each delivery as it becomes final (one reader).
    public nonisolated var outcomes: AsyncStream<Delivery> { finished }

    /// Queues `rows` for the board; an older write still waiting is superseded. When the worker
    /// is idle and the board may be written now, the write is queued already begun (one commit,
    /// one fsync, where queuing and beginning took two) and handed to the worker.
    @discardableResult
    public func send(_ rows: [[Int]], transition: BoardTransition?, strategy: DeliveryStrategy, messageId: String?) throws -> Delivery {
        let begun = idle && spacingEnd(for: strategy) <= now()
        let (delivery, superseded) = try queue.enqueue(
            panel: queueKey, rows: rows, transition: transition, strategy: strategy,
            messageId: messageId, now: now(), begun: begun)
        if begun {
            idle = false
            handedOver = delivery.id
        }
        try announce(superseded)
        wakeUp()
        return delivery
    }

    private func announce(_ superseded: [Int64]) throws {
        for id in superseded {
            if let old = try queue.delivery(id) {
                finishing.yield(old)
                observer?(old)
            }
        }
    }

    /// Looks at the queue again (after a retry or cancel from outside).
    public func poke() { wakeUp() }

    private func wakeUp() { signal.wake() }

    /// Delivers until cancelled.
    public func run() async {
        var recovering = true
        while !Task.isCancelled {
            let next: Delivery?
            do {
                let found = try queue.next(panel: queueKey, now: now())
                next = found.next
                try announce(found.superseded)
            } catch {
                storageTrouble(error)
                guard await pause(.seconds(5)) else { return }
                continue
            }
            guard let delivery = next else {
                recovering = false
                idle = true
                guard await sleepOrWake(until: nil) else { return }
                continue
            }
            idle = false
            if delivery.id == handedOver {
                handedOver = nil
                await attempt(delivery, resuming: false, begun: true)
                continue
            }
            let due = max(delivery.notBefore, spacingEnd(for: delivery.strategy))
            if due > now() {
                // A newer board may arrive meanwhile: it supersedes this one, so look again when woken.
                guard await sleepOrWake(until: due) else { return }
                continue
            }
            await attempt(delivery, resuming: recovering && delivery.state == .sending)
        }
    }

    // MARK: Attempts

    /// `begun`: already marked as being sent (``send(_:transition:strategy:messageId:)``).
    private func attempt(_ delivery: Delivery, resuming: Bool, begun: Bool = false) async {
        do {
            if !begun { try queue.begin(delivery.id) }
            let mine = try queue.lastWrite(panel: queueKey)?.rows
            // Read first when the board may already show this one: a write cut short by a
            // restart, flapd's own last write queued again, or a conflict-aware write.
            var shown: [[Int]]?
            if resuming || mine == delivery.rows || delivery.strategy == .conflictAware {
                shown = try await client.read()
            }
            if shown == delivery.rows {
                logger.info(
                    resuming ? "a write interrupted by a restart had reached the board" : "the board already shows it; not written again",
                    metadata: ["panel": "\(queueKey)", "delivery": "\(delivery.id)"])
                return try finish(delivery.id) { try queue.sent(delivery.id, written: resuming, now: now()) }
            }
            if delivery.strategy == .conflictAware, let shown, let mine, shown != mine {
                if onConflict == .refuse {
                    logger.warning(
                        "the board shows a message flapd did not write; left as it is",
                        metadata: ["panel": "\(queueKey)", "delivery": "\(delivery.id)"])
                    return try finish(delivery.id) { try queue.conflicted(delivery.id, now: now()) }
                }
                logger.notice(
                    "the board shows a message flapd did not write; overwriting it", metadata: ["panel": "\(queueKey)", "delivery": "\(delivery.id)"])
            }
            _ = try await client.write(delivery.rows, transition: delivery.transition, forced: delivery.strategy == .immediate)
            var conflict = false
            if delivery.strategy == .optimistic, let shown = try await client.read(), shown != delivery.rows {
                conflict = true
                logger.warning("the board showed another message when read back", metadata: ["panel": "\(queueKey)", "delivery": "\(delivery.id)"])
            }
            health = Health(reachable: true, lastSuccess: now(), lastError: nil)
            try finish(delivery.id) { try queue.sent(delivery.id, conflictSeen: conflict, now: now()) }
        } catch let error as VestaboardError {
            // Its attempts as counted now, this one among them (a write queued begun counted it then).
            failed(delivery, error, attempts: begun ? delivery.attempts : delivery.attempts + 1)
        } catch {
            storageTrouble(error)
            _ = await pause(.seconds(5))
        }
    }

    private func failed(_ delivery: Delivery, _ error: VestaboardError, attempts: Int) {
        health.reachable = error.isFinal ? true : false
        health.lastError = error.description
        var retryAt: Date?
        if !error.isFinal, attempts <= Self.retryDelays.count {
            var wait = Self.retryDelays[attempts - 1]
            if case .rateLimited(let asked) = error { wait = max(wait, asked) }
            retryAt = now().addingTimeInterval(wait / .seconds(1))
        }
        logger.warning(
            "the board did not take the message\(retryAt == nil ? "; given up" : "; trying again")",
            metadata: [
                "panel": "\(queueKey)", "delivery": "\(delivery.id)", "attempt": "\(attempts)", "error": "\(error)"
            ])
        do {
            try finish(delivery.id) { try queue.failed(delivery.id, error: error.description, retryAt: retryAt, now: now()) }
        } catch {
            storageTrouble(error)
        }
    }

    /// Records an outcome of `id`, and tells of it when that ended the delivery (a failed attempt
    /// with a retry ahead did not, unless a newer board superseded it).
    private func finish(_ id: Int64, _ record: () throws -> Void) throws {
        try record()
        if let done = try queue.delivery(id), done.state.isFinal {
            finishing.yield(done)
            observer?(done)
        }
    }

    /// The queue's storage failed: a storage fault was logged once by its health, anything
    /// else is logged here. The worker pauses and tries again.
    private func storageTrouble(_ error: any Error) {
        guard !(error is StorageFault) else { return }
        logger.error("the delivery queue cannot be used", metadata: ["panel": "\(queueKey)", "error": "\(error)"])
    }

    // MARK: Time

    /// When the cloud's 15 s since the last write end (now, for the Local API and `immediate`).
    private func spacingEnd(for strategy: DeliveryStrategy) -> Date {
        guard let spacing = client.api.minimumSpacing, strategy != .immediate,
            let last = try? queue.lastWrite(panel: queueKey)?.at
        else { return .distantPast }
        return last.addingTimeInterval(spacing / .seconds(1))
    }

    /// Sleeps until `date` (nil: no limit) or a wake-up, whichever is first; false when cancelled.
    private func sleepOrWake(until date: Date?) async -> Bool {
        await withTaskGroup(of: Void.self) { timer in
            if let date {
                let milliseconds = Int64((date.timeIntervalSince(now()) * 1000).rounded(.up))
                timer.addTask { [clock, signal] in
                    if (try? await clock.sleep(for: .milliseconds(max(0, milliseconds)), tolerance: nil)) != nil { signal.wake() }
                }
            }
            await signal.wait()
            timer.cancelAll()
        }
        return !Task.isCancelled
    }

    private func pause(_ duration: Duration) async -> Bool {
        (try? await clock.sleep(for: duration, tolerance: nil)) != nil
    }
}

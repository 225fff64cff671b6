import Synchronization

/// Tasks waiting for an answer by key, under a lock of their own, so a waiter whose task is
/// cancelled is answered at once (with the value it gave for that) from its cancellation
/// handler, with no task sent back into an actor to do it.
public final class Waiters<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private let waiting = Mutex<[Key: CheckedContinuation<Value, Never>]>([:])

    /// Nobody waiting yet.
    public init() {}

    /// Waits for ``answer(_:with:)`` for `key`; `cancelled` when the task is cancelled first.
    /// One waiter per key.
    public func wait(for key: Key, cancelled: Value) async -> Value {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let registered = waiting.withLock { waiting in
                    guard !Task.isCancelled else { return false }
                    waiting[key] = continuation
                    return true
                }
                if !registered { continuation.resume(returning: cancelled) }
            }
        } onCancel: {
            waiting.withLock { $0.removeValue(forKey: key) }?.resume(returning: cancelled)
        }
    }

    /// Answers the task waiting for `key`; false when none is.
    @discardableResult
    public func answer(_ key: Key, with value: Value) -> Bool {
        guard let waiter = waiting.withLock({ $0.removeValue(forKey: key) }) else { return false }
        waiter.resume(returning: value)
        return true
    }

    /// Answers every waiting task with `value`.
    public func answerAll(with value: Value) {
        let all = waiting.withLock { waiting in
            defer { waiting = [:] }
            return Array(waiting.values)
        }
        for waiter in all { waiter.resume(returning: value) }
    }
}

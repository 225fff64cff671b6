import Synchronization

/// Wakes one waiting task from anywhere: another actor, a cancellation handler, a timer. A wake
/// with nobody waiting is kept for the next wait, so none is lost between looking and waiting.
public final class WakeSignal: Sendable {
    private struct State {
        var pending = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    /// A signal with nobody waiting and no wake kept.
    public init() {}

    /// Wakes the task waiting, or the next one to wait.
    public func wake() {
        let waiter = state.withLock { state in
            guard let waiter = state.waiter else {
                state.pending = true
                return nil as CheckedContinuation<Void, Never>?
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    /// Returns at the next wake (at once if one came since the last wait), or when the task is
    /// cancelled. One waiter at a time.
    public func wait() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state in
                    guard !state.pending, !Task.isCancelled else {
                        state.pending = false
                        return true
                    }
                    state.waiter = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            wake()
        }
    }
}

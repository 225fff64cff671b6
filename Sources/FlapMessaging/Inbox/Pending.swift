import Synchronization

/// A result that arrives later (an operation's commit), awaited by whoever holds it. Lets a
/// caller queue work in order and wait for each result elsewhere.
public final class Pending<Value: Sendable>: Sendable {
    private struct State {
        var result: Result<Value, any Error>?
        var waiters: [CheckedContinuation<Value, any Error>] = []
    }

    private let state: Mutex<State>

    init() { state = Mutex(State()) }

    init(_ result: Result<Value, any Error>) { state = Mutex(State(result: result)) }

    func fulfil(_ result: Result<Value, any Error>) {
        let waiting = state.withLock { state in
            state.result = result
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiting { waiter.resume(with: result) }
    }

    /// The result, once it is there.
    public var value: Value {
        get async throws {
            try await withCheckedThrowingContinuation { waiter in
                let ready: Result<Value, any Error>? = state.withLock {
                    if $0.result == nil { $0.waiters.append(waiter) }
                    return $0.result
                }
                if let ready { waiter.resume(with: ready) }
            }
        }
    }
}

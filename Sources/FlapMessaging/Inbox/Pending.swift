import Foundation

/// A result that arrives later (an operation's commit), awaited by whoever holds it. Lets a
/// caller queue work in order and wait for each result elsewhere.
public final class Pending<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<Value, any Error>?
    private var waiters: [CheckedContinuation<Value, any Error>] = []

    init() {}

    init(_ result: Result<Value, any Error>) { self.result = result }

    func fulfil(_ result: Result<Value, any Error>) {
        let waiting = lock.withLock {
            self.result = result
            defer { waiters = [] }
            return waiters
        }
        for waiter in waiting { waiter.resume(with: result) }
    }

    /// The result, once it is there.
    public var value: Value {
        get async throws {
            try await withCheckedThrowingContinuation { waiter in
                let ready: Result<Value, any Error>? = lock.withLock {
                    if result == nil { waiters.append(waiter) }
                    return result
                }
                if let ready { waiter.resume(with: ready) }
            }
        }
    }
}

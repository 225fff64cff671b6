import FlapCore
import FlapPrimitives
import FlapStorage
import FoundationEssentials

extension Inbox {
    /// Scheduled messages whose instant has come take their senders' slots; how many did.
    @discardableResult
    public func release(now: Date) async throws -> Int {
        try await perform { try $0.release(now: now) }
    }

    /// Cancels a message waiting for its instant: its status afterwards (`cancelled`, or what
    /// it already was, which cancelling does not change), nil when the inbox never had it.
    public func cancel(_ id: String, now: Date) async throws -> ReceiptStatus? {
        try await perform { try $0.cancel(id, now: now) }
    }
}

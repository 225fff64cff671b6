import FlapMessaging
import FlapStorage
import FlapTime
import FlapVestaboard
import FoundationEssentials
import Logging
import ServiceLifecycle

/// Once an hour: forgets final receipts after 30 days (and beyond the newest 50 000) and
/// finished Vestaboard writes after 30 days (beyond the newest 1 000), and checkpoints both
/// databases' WAL files.
struct Housekeeping: Service {
    let inbox: Inbox
    let outbox: DeliveryQueue?
    /// The wall clock receipts age by.
    let now: @Sendable () -> Date
    let logger: Logger

    func run() async throws {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            let monthAgo = now().addingTimeInterval(-Inbox.receiptRetention)
            do {
                try await inbox.prune(before: monthAgo)
                try outbox?.prune(before: monthAgo)
            } catch is StorageFault {
                // Said once by the storage's health; tried again in an hour.
            } catch {
                logger.warning("could not prune old receipts", metadata: ["error": "\(error)"])
            }
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: .seconds(3600)) }
        }
        // On the way out, what is queued committed, then the WAL copied into the database and
        // emptied: the next start has nothing to recover.
        await inbox.finishWriting()
        try? await inbox.checkpoint()
    }
}

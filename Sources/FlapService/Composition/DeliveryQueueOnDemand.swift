import FlapStorage
import FlapVestaboard
import Synchronization

/// The boards' delivery queue (`outbox.sqlite`), opened the first time a panel asks for it (a
/// Vestaboard's), so a machine with none keeps no such file.
final class DeliveryQueueOnDemand: Sendable {
    private let path: String
    private let health: StorageHealth
    private let queue = Mutex<DeliveryQueue?>(nil)

    init(path: String, health: StorageHealth) {
        self.path = path
        self.health = health
    }

    /// The queue, opened now if no panel has asked before.
    func open() throws -> DeliveryQueue {
        try queue.withLock { queue in
            if let queue { return queue }
            let opened = try Appliance.database(path, purpose: "Vestaboard delivery queue", health: health) {
                try DeliveryQueue(path: $0, health: health)
            }
            queue = opened
            return opened
        }
    }

    /// The queue if a panel opened it.
    var opened: DeliveryQueue? { queue.withLock { $0 } }
}

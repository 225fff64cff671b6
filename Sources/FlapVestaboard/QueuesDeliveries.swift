import FlapHardware

/// A panel whose boards are written through the delivery queue (a Vestaboard, each Note of an
/// array): its workers are what `/v1/queue`, `flapctl queue` and the write metrics follow. A
/// capability a panel may have, asked for with `as? any QueuesDeliveries<SomeClock>`.
public protocol QueuesDeliveries<DeliveryClock>: Panel {
    /// The clock the workers space and retry their writes by.
    associatedtype DeliveryClock: Clock<Duration> & Sendable
    /// Its delivery workers: one, or one for each Note of an array.
    nonisolated var deliveries: [BoardDelivery<DeliveryClock>] { get }
}

/// A set of GPIO lines requested together: coil drivers (ULN2003), hall sensors, buttons.
///
/// Implementation requirements:
/// - Lines are addressed by their index in the request (0 = the first line requested), not by
///   chip offsets; the mapping to pins is configuration.
/// - Synchronous, like ``SPIDevice``: the stepping thread calls them between steps.
/// - ``set(_:)`` changes all given output lines at once (one kernel call where the backend allows).
/// - ``get()`` returns the level of every line, inputs and outputs, in request order.
/// - Releasing (``release()``) returns outputs to inputs (coils off); idempotent.
public protocol GPIOLines: Sendable {
    var name: String { get }
    var count: Int { get }
    func set(_ levels: [Int: Bool]) throws
    func get() throws -> [Bool]
    func release()
}

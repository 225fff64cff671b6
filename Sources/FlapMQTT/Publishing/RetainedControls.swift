import FoundationEssentials
import Synchronization

/// The board's controls as Home Assistant's switches, number and select read them, retained on
/// `ha/controls`: told each change, wherever it came from (Home Assistant, `/v1/controls`,
/// `/v1/sound`), by subscribing to the controls' changes. Only with Home Assistant.
public final class RetainedControls: RetainedOutput {
    private let outlet: MQTTOutlet
    private let last = Mutex<[UInt8]?>(nil)

    /// Publishes through `outlet`.
    public init(outlet: MQTTOutlet) { self.outlet = outlet }

    /// The controls as they now stand.
    public func publish(_ state: ControlState) {
        guard outlet.discovery != nil, let data = try? JSONEncoder.sorted.encode(state) else { return }
        last.withLock { $0 = Array(data) }
        outlet.publisher.publish(.homeAssistantControls, Array(data), retain: true)
    }

    /// Publishes the last state again (a new connection).
    public func republish() {
        if let payload = last.withLock({ $0 }) { outlet.publisher.publish(.homeAssistantControls, payload, retain: true) }
    }
}

import FoundationEssentials
import Synchronization

/// The kiosk's room as Home Assistant's sensors show it, retained on `ha/room`: its name, how
/// many members, how many pairs are synced; never anyone's heart rate. Only with Home Assistant.
public final class RetainedRoom: RetainedOutput {
    private let outlet: MQTTOutlet
    private let last = Mutex<[UInt8]?>(nil)

    /// Publishes through `outlet`.
    public init(outlet: MQTTOutlet) { self.outlet = outlet }

    /// The room as it now stands: its name, how many members, how many pairs are synced.
    public func publish(name: String?, members: Int, syncedPairs: Int) {
        guard outlet.discovery != nil,
            let data = try? JSONEncoder.snakeCaseSorted.encode(RoomSummaryBody(room: name, members: members, syncedPairs: syncedPairs))
        else { return }
        last.withLock { $0 = Array(data) }
        outlet.publisher.publish(.homeAssistantRoom, Array(data), retain: true)
    }

    /// Publishes the last summary again (a new connection).
    public func republish() {
        if let payload = last.withLock({ $0 }) { outlet.publisher.publish(.homeAssistantRoom, payload, retain: true) }
    }
}

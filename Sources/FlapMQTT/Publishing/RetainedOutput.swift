/// Something flapd keeps on the broker, retained: published as it changes and again on every
/// connection, so a broker that lost its retained messages (or a new device id) still has it.
/// The bridge makes each (``MQTTBridge/retained(_:)``) and publishes them again as it connects;
/// a feature's output is one of these, and the bridge holds no field for it.
public protocol RetainedOutput: Sendable {
    /// Everything retained, published again.
    func republish()
}

/// What a retained output publishes through: the device's topics on the bridge's client, Home
/// Assistant's discovery when it is on, and the state directory for what must outlive a restart.
public struct MQTTOutlet: Sendable {
    let publisher: TopicPublisher
    let discovery: HomeAssistantDiscovery?
    let stateDirectory: String
}

import FlapMQTTClient

/// A read-only MQTT connection for a kiosk's view of the rooms: a clean session, subscribed
/// again on every connection (the retained messages then come again), each message handed on.
struct TopicReader: Sendable {
    private let client: MQTTClient

    init(options: MQTTOptions) throws(MQTTError) {
        var options = options
        options.persistentSession = false
        client = try MQTTClient(options: options)
    }

    /// Reads `filter` until cancelled, handing each message to `take` on the caller's actor.
    func read(_ filter: String, isolation: isolated (any Actor)? = #isolation, _ take: (MQTTMessage) -> Void) async {
        client.start()
        await withTaskCancellationHandler {
            for await event in client.events {
                switch event {
                case .connected(0, _): try? client.subscribe(filter, qos: 1)
                case .message(let message): take(message)
                default: break
                }
            }
        } onCancel: { [client] in
            client.stop()
        }
    }

    /// Publishes on the same connection.
    func publish(_ topic: String, _ payload: [UInt8], retain: Bool) throws(MQTTError) {
        try client.publish(topic, payload, qos: 1, retain: retain)
    }
}

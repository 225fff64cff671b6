import FlapMQTTClient
import FoundationEssentials

/// A short-lived MQTT connection for one flapctl command: TLS for `mqtts://`, no persistent
/// session, connected before it is returned, and stopped at its deadline (which ends its
/// events, so every wait on them ends then too).
final class CommandConnection {
    let client: MQTTClient
    var events: AsyncStream<MQTTEvent>.Iterator
    private let watchdog: Task<Void, Never>

    private init(client: MQTTClient, events: AsyncStream<MQTTEvent>.Iterator, watchdog: Task<Void, Never>) {
        self.client = client
        self.events = events
        self.watchdog = watchdog
    }

    static func open(url: String, timeout: Double) async throws -> CommandConnection {
        let address: MQTTAddress
        do { address = try MQTTAddress(url: url) } catch { throw InputError(error.description) }
        var options = MQTTOptions(host: address.host, port: address.port, clientID: "flapctl-\(UUID().uuidString.prefix(8))")
        options.persistentSession = false
        if address.tls { options.tls = .init(caFile: "/etc/ssl/certs/ca-certificates.crt") }
        let client: MQTTClient
        do { client = try MQTTClient(options: options) } catch { throw ConnectionError(error.description) }
        var events = client.events.makeAsyncIterator()
        client.start()
        let deadline = ContinuousClock.now + .seconds(timeout)
        let watchdog = Task { [client] in
            try? await Task.sleep(until: deadline)
            client.stop()
        }
        let connection = CommandConnection(client: client, events: events, watchdog: watchdog)
        while true {
            guard let event = await events.next() else {
                connection.close()
                throw ConnectionError("no MQTT broker answered at \(url)")
            }
            if case .connected(0, _) = event { break }
            if case .connected(let code, _) = event {
                connection.close()
                throw ConnectionError("the broker refused flapctl (code \(code))")
            }
        }
        connection.events = events
        return connection
    }

    func close() {
        watchdog.cancel()
        client.stop()
    }
}

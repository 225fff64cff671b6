import FlapCore
import FlapMessaging
import FlapMetrics
import Foundation
import Logging
import ServiceLifecycle

/// flapd on MQTT (DESIGN §7): takes messages from the device's topics into the same intake as
/// HTTP, and publishes receipts, the board and availability.
///
/// Topics under `<base>/<device>/`: `message` (JSON, QoS 1), `command` (plain text; the slot of
/// sender `mqtt-command`), `slot/<sender>` (retained JSON: the broker keeps each sender's latest
/// message; an empty retained payload clears the slot), `ha/set` (Home Assistant's text entity);
/// `<base>/group/<group>/message` for each group. Published: `receipt` (every outcome, including
/// rejections with the reason), `state` (retained board), `availability` (retained, will `offline`).
///
/// libmosquitto 2.0.11 acknowledges a QoS 1 message (PUBACK) before handing it over: a crash
/// between the two loses it. The time from hand-over to commit is measured as
/// `flapd_mqtt_ack_window_seconds`; retained slot messages are redelivered after a crash.
public final class MQTTBridge: Service, Sendable {
    public let settings: MQTTSettings
    private let intake: MessageIntake
    private let metrics: FlapMetrics
    private let logger: Logger
    private let clients: ClientSlot
    private var client: MQTTClient { clients.current }
    private let discovery: HomeAssistantDiscovery
    private let options: MQTTOptions

    public init(settings: MQTTSettings, password: String?, intake: MessageIntake, metrics: FlapMetrics,
                stateDirectory: String, logger: Logger) throws(MQTTError) {
        self.settings = settings
        self.intake = intake
        self.metrics = metrics
        self.logger = logger
        discovery = HomeAssistantDiscovery(settings: settings, stateDirectory: stateDirectory)
        var options = MQTTOptions(host: settings.host, port: settings.port, clientID: "flapd-\(settings.deviceID)")
        options.protocolVersion = settings.protocolVersion
        options.keepAlive = settings.keepAlive
        options.username = settings.username
        options.password = password
        if settings.tls {
            options.tls = .init(caFile: settings.caFile ?? "/etc/ssl/certs/ca-certificates.crt",
                                certificateFile: settings.certificateFile, keyFile: settings.keyFile)
        }
        options.will = .init(topic: "\(settings.baseTopic)/\(settings.deviceID)/availability", payload: Array("offline".utf8), qos: 1, retain: true)
        self.options = options
        clients = ClientSlot(try MQTTClient(options: options))
    }

    func topic(_ leaf: String) -> String { "\(settings.baseTopic)/\(settings.deviceID)/\(leaf)" }

    public func run() async throws {
        client.start()
        let receipts = Task { [intake, self] in
            for await receipt in intake.inbox.finalReceipts { self.publishReceipt(receipt, source: nil) }
        }
        defer { receipts.cancel() }
        await cancelWhenGracefulShutdown {
            // One client at a time; a broker that does not speak MQTT 5 gets a 3.1.1 one.
            while !Task.isCancelled {
                let current = self.client
                for await event in current.events {
                    if case .connected(let code, _) = event, Self.isUnsupportedVersion(code), current.options.protocolVersion == .v5 {
                        self.logger.notice("the MQTT broker does not speak MQTT 5; falling back to 3.1.1")
                        current.stop()
                        var options = self.options
                        options.protocolVersion = .v311
                        if let fallback = try? MQTTClient(options: options) {
                            self.clients.replace(with: fallback)
                            fallback.start()
                        }
                        break
                    }
                    await self.handle(event)
                }
                if self.client === current { break }
            }
        }
        // A clean goodbye: offline now rather than when the broker notices (the will is for crashes).
        try? client.publish(topic("availability"), Array("offline".utf8), qos: 1, retain: true)
        try? await Task.sleep(for: .milliseconds(100))
        client.stop()
    }

    private func handle(_ event: MQTTEvent) async {
        switch event {
        case .connected(0, let sessionPresent):
            logger.info("connected to the MQTT broker", metadata: ["broker": "\(settings.host):\(settings.port)", "session": "\(sessionPresent ? "resumed" : "new")"])
            subscribe()
            try? client.publish(topic("availability"), Array("online".utf8), qos: 1, retain: true)
            if settings.homeAssistant { discovery.announce(client) }
        case .connected(let code, _):
            logger.error("the MQTT broker refused the connection", metadata: ["code": "\(code)", "reason": "\(Self.refusal(code))"])
        case .connectFailed(let reason):
            logger.warning("cannot reach the MQTT broker; retrying", metadata: ["broker": "\(settings.host):\(settings.port)", "reason": "\(reason)"])
        case .disconnected(let code):
            if code != 0 { logger.warning("lost the MQTT broker; reconnecting", metadata: ["code": "\(code)"]) }
        case .message(let message):
            await take(message)
        }
    }

    private func subscribe() {
        var filters = [topic("message"), topic("command"), topic("slot/+"), topic("ha/set")]
        filters += settings.groups.map { "\(settings.baseTopic)/group/\($0)/message" }
        for filter in filters {
            do { try client.subscribe(filter, qos: 1) } catch { logger.error("cannot subscribe", metadata: ["topic": "\(filter)", "error": "\(error)"]) }
        }
    }

    /// Every message goes through the same checks as HTTP; every outcome gets a receipt.
    func take(_ message: MQTTMessage) async {
        let prefix = "\(settings.baseTopic)/\(settings.deviceID)/"
        let leaf = message.topic.hasPrefix(prefix) ? String(message.topic.dropFirst(prefix.count)) : "message"
        guard message.payload.count <= 64 * 1024 else {
            metrics.rejected(source: "mqtt", reason: "too_large")
            return publishRejection(id: nil, reason: "the payload is \(message.payload.count) bytes; at most 64 KiB", source: "mqtt")
        }
        do {
            let outcome: IntakeOutcome
            var source = "mqtt"
            if leaf == "command" || leaf == "ha/set" {
                source = leaf == "command" ? "mqtt-command" : "home-assistant"
                guard let text = String(validating: message.payload, as: UTF8.self) else {
                    return publishRejection(id: nil, reason: "the command is not UTF-8 text", source: source)
                }
                outcome = try await intake.submit(fields: ["text": text], source: source)
            } else if leaf.hasPrefix("slot/") {
                let sender = String(leaf.dropFirst(5))
                if message.payload.isEmpty {
                    // An empty retained payload: the sender cleared its slot.
                    _ = try await intake.inbox.clearSlot(sender, now: intake.now())
                    return
                }
                outcome = try await submitSlot(message.payload, sender: sender)
            } else {
                outcome = try await intake.submit(json: message.payload, source: "mqtt")
            }
            metrics.mqttCommitted(after: message.received.duration(to: .now))
            publish(outcome, payload: message.payload, source: source)
        } catch {
            logger.error("could not take an MQTT message", metadata: ["topic": "\(message.topic)", "error": "\(error)"])
        }
    }

    /// A slot message is that sender's, whatever its body says about the sender.
    private func submitSlot(_ payload: [UInt8], sender: String) async throws -> IntakeOutcome {
        guard var fields = (try? JSONSerialization.jsonObject(with: Data(payload))) as? [String: Any] else {
            return .invalid(MessageErrors(field: "", "a message must be a JSON object"))
        }
        if let given = (fields["sender"] as? [String: Any])?["id"] as? String, given != sender {
            return .invalid(MessageErrors(field: "sender.id", "is \(given) but the slot topic is \(sender)'s"))
        }
        var senderFields = fields["sender"] as? [String: Any] ?? [:]
        senderFields["id"] = sender
        fields["sender"] = senderFields
        return try await intake.submit(fields: fields, source: "mqtt")
    }

    private func publish(_ outcome: IntakeOutcome, payload: [UInt8], source: String) {
        switch outcome {
        case .accepted(let receipt, let warnings):
            metrics.accepted(id: receipt.id, source: source)
            // Already final (expired on arrival, older than its slot): the inbox announces that
            // receipt itself, once; publishing it here too would make two.
            if !receipt.status.isFinal { publishReceipt(receipt, source: source, warnings: warnings) }
        case .duplicate(let receipt):
            publishReceipt(receipt, source: source, duplicate: true)
        case .invalid(let errors):
            metrics.rejected(source: source, reason: "invalid")
            publishRejection(id: Self.id(in: payload), reason: errors.description, source: source)
        case .refused(let reason):
            metrics.rejected(source: source, reason: "refused")
            publishRejection(id: Self.id(in: payload), reason: reason, source: source)
        case .rateLimited(let wait):
            metrics.rejected(source: source, reason: "rate_limited")
            publishRejection(id: Self.id(in: payload), reason: "too many messages from this sender; try again in \(Int(wait.rounded(.up))) s", source: source)
        }
    }

    func publishReceipt(_ receipt: Receipt, source: String?, warnings: [String] = [], duplicate: Bool = false) {
        var body: [String: Any] = ["id": receipt.id, "sender": receipt.sender, "status": receipt.status.rawValue,
                                   "device": settings.deviceID, "at": ISO8601DateFormatter().string(from: Date())]
        if let reason = receipt.reason { body["reason"] = reason }
        if !warnings.isEmpty { body["warnings"] = warnings }
        if duplicate { body["duplicate"] = true }
        if let source { body["source"] = source }
        publishJSON(topic("receipt"), body)
    }

    private func publishRejection(id: String?, reason: String, source: String) {
        var body: [String: Any] = ["status": "rejected", "reason": reason, "device": settings.deviceID,
                                   "source": source, "at": ISO8601DateFormatter().string(from: Date())]
        if let id { body["id"] = id }
        publishJSON(topic("receipt"), body)
    }

    /// The panel's board, retained: what the display shows now.
    public func publishState(panel: String, board: Board, messageId: String?) {
        var body: [String: Any] = ["panel": panel, "codes": board.codeRows,
                                   "text": board.rows.map { String($0.map(BoardText.symbol)) }]
        if let messageId { body["message"] = messageId }
        publishJSON(topic("state"), body, retain: true)
    }

    private func publishJSON(_ topic: String, _ body: [String: Any], retain: Bool = false) {
        guard let data = try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys]) else { return }
        do { try client.publish(topic, Array(data), qos: 1, retain: retain) } catch {
            logger.warning("could not publish", metadata: ["topic": "\(topic)", "error": "\(error)"])
        }
    }

    static func id(in payload: [UInt8]) -> String? {
        ((try? JSONSerialization.jsonObject(with: Data(payload))) as? [String: Any])?["id"] as? String
    }

    /// CONNACK codes for "unsupported protocol version": 132 (MQTT 5 reason), 1 (3.1.1 return code).
    static func isUnsupportedVersion(_ code: Int) -> Bool { code == 132 || code == 1 }

    static func refusal(_ code: Int) -> String {
        switch code {
        case 4, 134: "bad user name or password"
        case 5, 135: "not authorised"
        case 1, 132: "the broker does not speak this MQTT version"
        case 2, 133: "client id refused"
        default: "code \(code)"
        }
    }
}

/// The bridge's current client, replaced once if the broker needs MQTT 3.1.1.
final class ClientSlot: @unchecked Sendable {
    private let lock = NSLock()
    private var client: MQTTClient
    init(_ client: MQTTClient) { self.client = client }
    var current: MQTTClient { lock.withLock { client } }
    func replace(with client: MQTTClient) { lock.withLock { self.client = client } }
}

import FlapMQTTClient
import FlapCore
import FlapMessaging
import FlapMetrics
import FlapPictures
import FlapStorage
import FlapJSON
import FoundationEssentials
import Logging
import ServiceLifecycle
import Synchronization

/// flapd on MQTT: takes messages from the device's topics into the same intake as HTTP, and
/// publishes receipts, the board and availability.
///
/// Topics under `<base>/<device>/`: `message` (JSON, QoS 1 or 2), `command` (plain text; the slot
/// of sender `mqtt-command`), `slot/<sender>` (retained JSON: the broker keeps each sender's latest
/// message; an empty retained payload clears the slot), `ha/set` (Home Assistant's text entity);
/// `<base>/group/<group>/message` for each group. Published: `receipt` (every outcome, including
/// rejections with the reason), `state` (retained board), `availability` (retained, will `offline`).
///
/// A QoS 1 or 2 message is acknowledged (PUBACK, PUBREC) only after it is committed to the inbox,
/// or refused with a receipt: until then the broker holds it for flapd's persistent session and
/// delivers it again after a crash. Messages are queued for the inbox in the order they arrive,
/// and the inbox commits those that arrive together in one transaction.
public final class MQTTBridge: Service, Sendable {
    public let settings: MQTTSettings
    private let intake: MessageIntake
    private let metrics: FlapMetrics
    private let logger: Logger
    private let clients: CurrentClient
    private var client: MQTTClient { clients.current }
    private let discovery: HomeAssistantDiscovery
    private let options: MQTTOptions
    private let queueFull = QueueFullWarning()
    private let link: MQTTLink
    /// The board last published on `state`, published again on every connection: a broker that
    /// lost its retained messages, or a new device id, still gets what the board shows.
    private let lastState = Mutex<[UInt8]?>(nil)
    /// The board's picture last published on `board.png`.
    private let lastPicture = Mutex<[UInt8]?>(nil)
    /// The panels' ids; with several, each panel's board and picture, published again on connecting.
    private let panels: [String]
    private let lastPanels = Mutex<[String: (state: [UInt8], picture: [UInt8]?)]>([:])
    /// The room's summary last published on `ha/room`.
    private let lastRoom = Mutex<[UInt8]?>(nil)
    /// Counts connections made and lost: a message held back by a storage fault stops being
    /// offered again once its connection is gone (the broker delivers it again on the next).
    private let connectionEpoch = Mutex(0)
    /// The connection to the broker as it stands.
    public var status: MQTTLinkStatus { link.current }
    /// What Home Assistant's controls change, once the service has composed it.
    private let controls = Mutex<(any BoardControls)?>(nil)
    /// The warnings of Home Assistant's latest message, by its id: its later receipts replace
    /// the retained `ha/outcome` and carry them too.
    private let homeAssistantWarnings = Mutex<(id: String, warnings: [String])?>(nil)

    /// `panels`: the panels' ids, the first the one `state` shows; with several, each is also
    /// published on `state/<panel>` and is a Home Assistant device of its own.
    public init(settings: MQTTSettings, password: String?, intake: MessageIntake, metrics: FlapMetrics,
                stateDirectory: String, panels: [String] = [], room: Bool = false, logger: Logger) throws(MQTTError) {
        self.settings = settings
        self.intake = intake
        self.metrics = metrics
        self.logger = logger
        self.panels = panels
        discovery = HomeAssistantDiscovery(settings: settings, stateDirectory: stateDirectory, panels: panels, room: room)
        var options = settings.options(clientID: "flapd-\(settings.deviceID)", password: password)
        options.manualAcknowledgement = true
        options.onAcknowledged = { [metrics] delay in metrics.mqttAcknowledged(after: delay) }
        options.will = .init(topic: "\(settings.baseTopic)/\(settings.deviceID)/availability", payload: Array("offline".utf8), qos: 1, retain: true)
        self.options = options
        link = MQTTLink(broker: "\(settings.host):\(settings.port)", protocolVersion: options.protocolVersion == .v5 ? "5" : "3.1.1")
        clients = CurrentClient(try MQTTClient(options: options))
    }

    func topic(_ leaf: String) -> String { "\(settings.baseTopic)/\(settings.deviceID)/\(leaf)" }

    /// Gives the bridge the controls Home Assistant's entities change.
    public func attach(_ controls: any BoardControls) {
        self.controls.withLock { $0 = controls }
    }

    public func run() async throws {
        client.start()
        let events = await intake.inbox.events()
        await withDiscardingTaskGroup { group in
            // Receipts, published as the inbox decides them, until the bridge stops.
            group.addTask { for await event in events { self.announce(event) } }
            await cancelWhenGracefulShutdown {
                // Each message's acknowledgement waits for its commit in a task of this group, so
                // commits can be grouped; the bridge says goodbye only once each is given (or,
                // for a message the disk refused, left to the broker, as cancelling its wait does).
                await withDiscardingTaskGroup { acknowledgements in
                    await self.follow(acknowledgements: &acknowledgements)
                    acknowledgements.cancelAll()
                }
            }
            group.cancelAll()
        }
        // A clean goodbye: offline now rather than when the broker notices (the will is for crashes).
        try? client.publish(topic("availability"), Array("offline".utf8), qos: 1, retain: true)
        await client.disconnect(within: .seconds(2))
        link.set(.stopped)
    }

    /// The client's events, one client at a time: a broker that does not speak MQTT 5 gets a 3.1.1 one.
    private func follow(acknowledgements: inout DiscardingTaskGroup) async {
        while !Task.isCancelled {
            let current = client
            for await event in current.events {
                if case .connected(let code, _) = event, Self.isUnsupportedVersion(code), current.options.protocolVersion == .v5 {
                    logger.notice("the MQTT broker does not speak MQTT 5; falling back to 3.1.1")
                    current.stop()
                    var options = self.options
                    options.protocolVersion = .v311
                    link.set(.connecting, reason: "the broker does not speak MQTT 5", protocolVersion: "3.1.1")
                    if let fallback = try? MQTTClient(options: options) {
                        clients.replace(with: fallback)
                        fallback.start()
                    }
                    break
                }
                await handle(event, acknowledgements: &acknowledgements)
            }
            if client === current { break }
        }
    }

    private func handle(_ event: MQTTEvent, acknowledgements: inout DiscardingTaskGroup) async {
        switch event {
        case .connected(0, let sessionPresent):
            connectionEpoch.withLock { $0 += 1 }
            link.set(.connected)
            logger.info("connected to the MQTT broker", metadata: ["broker": "\(settings.host):\(settings.port)", "session": "\(sessionPresent ? "resumed" : "new")"])
            subscribe()
            try? client.publish(topic("availability"), Array("online".utf8), qos: 1, retain: true)
            if settings.homeAssistant { discovery.announce(client) }
            if let state = lastState.withLock({ $0 }) { publish(topic("state"), state, retain: true) }
            if let picture = lastPicture.withLock({ $0 }) { publish(topic("board.png"), picture, retain: true) }
            if let room = lastRoom.withLock({ $0 }) { publish(topic("ha/room"), room, retain: true) }
            for (panel, last) in lastPanels.withLock({ $0 }) {
                publish(topic("state/\(panel)"), last.state, retain: true)
                if let picture = last.picture { publish(topic("board/\(panel).png"), picture, retain: true) }
            }
            await publishControls()
        case .connected(let code, _):
            link.set(.refused, reason: Self.refusal(code))
            logger.error("the MQTT broker refused the connection", metadata: ["code": "\(code)", "reason": "\(Self.refusal(code))"])
        case .connectFailed(let reason):
            link.set(.connecting, reason: reason)
            logger.warning("cannot reach the MQTT broker; retrying", metadata: ["broker": "\(settings.host):\(settings.port)", "reason": "\(reason)"])
        case .disconnected(let reason):
            connectionEpoch.withLock { $0 += 1 }
            link.set(.connecting, reason: "lost the broker: \(reason)")
            logger.warning("lost the MQTT broker; reconnecting", metadata: ["reason": "\(reason)"])
        case .message(let message):
            await take(message, acknowledgements: &acknowledgements)
        }
    }

    private func subscribe() {
        var filters = [topic("message"), topic("command"), topic("slot/+"), topic("ha/set")] + Self.controlLeaves.map(topic)
        filters += settings.groups.map { "\(settings.baseTopic)/group/\($0)/message" }
        for filter in filters {
            // QoS 2 allowed: each message arrives with the QoS it was published with.
            do { try client.subscribe(filter, qos: 2) } catch { logger.error("cannot subscribe", metadata: ["topic": "\(filter)", "error": "\(error)"]) }
        }
    }

    /// Every message goes through the same checks as HTTP; every outcome gets a receipt. The
    /// message is queued for the inbox here, in arrival order; its acknowledgement waits for
    /// the commit (or the refusal) in a task of `acknowledgements`, so commits can be grouped.
    func take(_ message: MQTTMessage, acknowledgements: inout DiscardingTaskGroup) async {
        let client = self.client
        let epoch = connectionEpoch.withLock { $0 }
        let ticket: IntakeTicket
        do {
            guard let queued = try await queue(message) else { return client.acknowledge(message) }
            ticket = queued
        } catch {
            logger.error("could not take an MQTT message", metadata: ["topic": "\(message.topic)", "error": "\(error)"])
            return client.acknowledge(message)
        }
        acknowledgements.addTask { [self] in
            var ticket = ticket
            while true {
                do {
                    if case .invalid(let errors) = try await ticket.outcome {
                        let source = self.source(of: message)
                        metrics.rejected(source: source, reason: "invalid")
                        publishRejection(id: Self.id(in: message.payload), reason: errors.description, source: source)
                    }
                } catch is StorageFault {
                    // The disk cannot take it now (full, read-only): not acknowledged, so the
                    // broker keeps it, and it is offered to the inbox again until the disk
                    // takes it. The client's receive window bounds how many wait like this.
                    guard let again = await retryAfterStorageFault(message, epoch: epoch) else { return }
                    ticket = again
                    continue
                } catch {
                    // Not stored: refused with a receipt, so it is not redelivered for ever.
                    logger.error("could not store an MQTT message", metadata: ["topic": "\(message.topic)", "error": "\(error)"])
                    publishRejection(id: Self.id(in: message.payload), reason: "flapd could not store it: \(error)", source: source(of: message))
                }
                break
            }
            client.acknowledge(message)
        }
    }

    /// How long a message the disk refused waits before it is offered again.
    static let storageRetry = Duration.seconds(2)

    /// Offers `message` to the inbox again after a pause; nil when flapd is stopping or the
    /// connection it came on was lost (it stays unacknowledged, and the broker delivers it again).
    private func retryAfterStorageFault(_ message: MQTTMessage, epoch: Int) async -> IntakeTicket? {
        guard (try? await Task.sleep(for: Self.storageRetry)) != nil, connectionEpoch.withLock({ $0 }) == epoch else { return nil }
        return try? await queue(message)
    }

    private func leaf(of message: MQTTMessage) -> String {
        let prefix = "\(settings.baseTopic)/\(settings.deviceID)/"
        return message.topic.hasPrefix(prefix) ? String(message.topic.dropFirst(prefix.count)) : "message"
    }

    private func source(of message: MQTTMessage) -> String {
        switch leaf(of: message) {
        case "command": "mqtt-command"
        case "ha/set": Self.homeAssistant
        default: "mqtt"
        }
    }

    /// Queues `message` for the inbox; nil when it was settled here (refused for its size or
    /// encoding, or an empty slot cleared).
    private func queue(_ message: MQTTMessage) async throws -> IntakeTicket? {
        let leaf = leaf(of: message)
        let source = source(of: message)
        let size = message.oversizedPayload ?? message.payload.count
        guard size <= Self.maximumPayload else {
            metrics.rejected(source: source, reason: "too_large")
            publishRejection(id: nil, reason: "the payload is \(size) bytes; a message may be at most 64 KiB (\(Self.maximumPayload) bytes)", source: source)
            return nil
        }
        if Self.controlLeaves.contains(leaf) {
            await control(leaf, message.payload)
            return nil
        }
        if leaf == "command" || leaf == "ha/set" {
            guard let text = String(validating: message.payload, as: UTF8.self) else {
                publishRejection(id: nil, reason: "the command is not UTF-8 text", source: source)
                return nil
            }
            // An automation's JSON on ha/set: a message with its fields ({"text": "DOOR OPEN", "duration": 60}).
            // It is always Home Assistant's: a sender in it would let an automation post as a member.
            if leaf == "ha/set", text.hasPrefix("{"), let fields = (try? JSONValue(parsing: message.payload))?.object {
                if fields["sender"] != nil {
                    metrics.rejected(source: source, reason: "invalid")
                    publishRejection(id: fields["id"]?.string, reason: "sender: a message on ha/set is always from home-assistant; leave sender out "
                                     + "(to send as someone else, publish to \(settings.baseTopic)/\(settings.deviceID)/message)", source: source)
                    return nil
                }
                return await intake.queue(fields: fields, source: source, announce: true, repetition: Self.repetition(message))
            }
            return await intake.queue(fields: ["text": .string(text)], source: source, announce: true, repetition: Self.repetition(message))
        }
        if leaf.hasPrefix("slot/") {
            let sender = String(leaf.dropFirst(5))
            if message.payload.isEmpty {
                // An empty retained payload: the sender cleared its slot.
                _ = try await intake.inbox.clearSlot(sender, now: intake.now())
                return nil
            }
            return await queueSlot(message.payload, sender: sender, repetition: Self.repetition(message))
        }
        return await intake.queue(json: message.payload, source: "mqtt", announce: true, repetition: Self.repetition(message))
    }

    /// The largest payload taken, as on HTTP.
    static let maximumPayload = 64 * 1024

    /// The topics of Home Assistant's button, switches, number and select.
    static let controlLeaves = ["ha/clear", "ha/pause/set", "ha/mute/set", "ha/volume/set", "ha/transition/set"]

    /// A control's command: done, then the controls' state published (also when it was refused,
    /// so Home Assistant's entity goes back to what flapd has).
    private func control(_ leaf: String, _ payload: [UInt8]) async {
        guard let controls = controls.withLock({ $0 }) else { return }
        let value = String(decoding: payload, as: UTF8.self).trimmed
        do {
            switch leaf {
            case "ha/clear": try await controls.clearBoard()
            case "ha/pause/set": try await controls.setPaused(value.uppercased() == "ON")
            case "ha/mute/set": try await controls.setMuted(value.uppercased() == "ON")
            case "ha/volume/set":
                if let volume = Double(value), (0...100).contains(volume) {
                    try await controls.setVolume(Int(volume.rounded()))
                } else {
                    logger.warning("Home Assistant's volume is not 0 to 100", metadata: ["value": "\(value)"])
                }
            default:
                if let strategy = TransitionStrategy(rawValue: value) {
                    try await controls.setTransition(strategy)
                } else {
                    logger.warning("Home Assistant's transition is not one flapd knows", metadata: ["value": "\(value)"])
                }
            }
        } catch {
            logger.warning("Home Assistant's control was not done", metadata: ["topic": "\(leaf)", "error": "\(error)"])
        }
        await publishControls()
    }

    /// The controls' state, retained for Home Assistant's switches, number and select; the
    /// service calls this too when the API changes one.
    public func publishControls() async {
        guard settings.homeAssistant, let controls = controls.withLock({ $0 }) else { return }
        guard let data = try? JSONEncoder.sorted.encode(await controls.controlState()) else { return }
        publish(topic("ha/controls"), Array(data), retain: true)
    }

    /// A slot message is that sender's, whatever its body says about the sender.
    private func queueSlot(_ payload: [UInt8], sender: String, repetition: Repetition) async -> IntakeTicket {
        guard var fields = (try? JSONValue(parsing: payload))?.object else {
            return await intake.queue(json: payload, source: "mqtt", announce: true)  // says what is wrong with it
        }
        if let given = fields["sender"]?["id"]?.string, given != sender {
            return IntakeTicket(invalid: MessageErrors(field: "sender.id", "is \(given) but the slot topic is \(sender)'s"))
        }
        var senderFields = fields["sender"]?.object ?? [:]
        senderFields["id"] = .string(sender)
        fields["sender"] = .object(senderFields)
        return await intake.queue(fields: fields, source: "mqtt", announce: true, repetition: repetition)
    }

    /// A message the broker says it sent before (DUP) or kept (retained) is a copy of whichever
    /// earlier message it repeats; any other is new unless it repeats its sender's current one.
    static func repetition(_ message: MQTTMessage) -> Repetition {
        message.duplicate || message.retained ? .copyOfAnyEarlier : .newUnlessCurrent
    }

    /// Publishes what the inbox announces: outcomes of messages taken over MQTT, and every
    /// final receipt, in commit order.
    private func announce(_ event: InboxEvent) {
        switch event {
        case .final(let receipt):
            let warnings = homeAssistantWarnings.withLock { $0?.id == receipt.id ? $0?.warnings : nil }
            publishReceipt(receipt, source: nil, warnings: warnings ?? [])
        case .outcome(_, .accepted(let receipt), let note):
            metrics.accepted(id: receipt.id, source: note.source)
            if note.source == Self.homeAssistant { homeAssistantWarnings.withLock { $0 = (receipt.id, note.warnings) } }
            // Already final (expired on arrival, older than its slot): that receipt follows.
            if !receipt.status.isFinal { publishReceipt(receipt, source: note.source, warnings: note.warnings) }
        case .outcome(_, .duplicate(let receipt), let note):
            publishReceipt(receipt, source: note.source, duplicate: true)
        case .outcome(let id, .refused(let reason), let note):
            metrics.rejected(source: note.source, reason: "refused")
            publishRejection(id: id, reason: reason, source: note.source)
        case .outcome(let id, .rateLimited(let wait), let note):
            metrics.rejected(source: note.source, reason: "rate_limited")
            publishRejection(id: id, reason: "too many messages from this sender; try again in \(Int(wait.rounded(.up))) s", source: note.source)
        case .outcome(_, .replayed, _), .outcome(_, .keyReused, _):
            break  // idempotency keys come over HTTP only
        }
    }

    func publishReceipt(_ receipt: Receipt, source: String?, warnings: [String] = [], duplicate: Bool = false) {
        publish(ReceiptBody(id: receipt.id, sender: receipt.sender, status: receipt.status.rawValue, reason: receipt.reason,
                            warnings: warnings.isEmpty ? nil : warnings, duplicate: duplicate ? true : nil, source: source,
                            device: settings.deviceID, at: Date.now.formatted(.iso8601)))
    }

    private func publishRejection(id: String?, reason: String, source: String) {
        publish(ReceiptBody(id: id, sender: nil, status: "rejected", reason: reason, warnings: nil, duplicate: nil, source: source,
                            device: settings.deviceID, at: Date.now.formatted(.iso8601)))
    }

    private func publish(_ receipt: ReceiptBody) {
        guard let data = try? JSONEncoder.sorted.encode(receipt) else { return }
        publish(topic("receipt"), Array(data))
        // What became of Home Assistant's text, where Home Assistant looks: its outcome sensor.
        if receipt.source == Self.homeAssistant || receipt.sender == Self.homeAssistant {
            publish(topic("ha/outcome"), Array(data), retain: true)
        }
    }

    /// The source and sender of what Home Assistant's text entity sends.
    static let homeAssistant = "home-assistant"

    /// The panel's board, retained: what the display shows now, as JSON on `state` and as the
    /// picture of `/v1/board.png` on `board.png` (Home Assistant's image entity). Published again
    /// on every connection to the broker.
    public func publishState(panel: String, board: Board, messageId: String?) {
        let body = StateBody(panel: panel, codes: board.codeRows, text: board.lines, message: messageId)
        guard let data = try? JSONEncoder.sorted.encode(body) else { return }
        let picture = settings.homeAssistant ? try? BoardPNG.encode(board) : nil
        if panels.count > 1 {
            lastPanels.withLock { $0[panel] = (Array(data), picture) }
            publish(topic("state/\(panel)"), Array(data), retain: true)
            if let picture { publish(topic("board/\(panel).png"), picture, retain: true) }
        }
        guard panel == panels.first || panels.isEmpty else { return }
        lastState.withLock { $0 = Array(data) }
        publish(topic("state"), Array(data), retain: true)
        guard let picture else { return }
        lastPicture.withLock { $0 = picture }
        publish(topic("board.png"), picture, retain: true)
    }

    /// The kiosk's room as Home Assistant's sensors show it: its name, how many members, how many
    /// pairs are synced. Retained; never anyone's heart rate.
    public func publishRoom(name: String?, members: Int, syncedPairs: Int) {
        guard settings.homeAssistant else { return }
        let body = RoomSummaryBody(room: name, members: members, syncedPairs: syncedPairs)
        guard let data = try? JSONEncoder.snakeCaseSorted.encode(body) else { return }
        lastRoom.withLock { $0 = Array(data) }
        publish(topic("ha/room"), Array(data), retain: true)
    }

    /// A message came to rest on a panel: Home Assistant's event entity fires with its sender
    /// and text, so an automation can follow ("when Mum's message shows, flash the hall light").
    public func announceDisplayed(panel: String, board: Board, messageId: String) async {
        guard settings.homeAssistant else { return }
        let receipt = try? await intake.inbox.receipt(id: messageId)
        let event = DisplayedEvent(eventType: "displayed", message: messageId, sender: receipt?.sender, panel: panel,
                                   text: board.lines.map { $0.trimmed }.filter { !$0.isEmpty }.joined(separator: " "))
        guard let data = try? JSONEncoder.snakeCaseSorted.encode(event) else { return }
        publish(topic("ha/displayed"), Array(data))
    }

    private func publish(_ topic: String, _ payload: [UInt8], retain: Bool = false) {
        do throws(MQTTError) {
            try client.publish(topic, payload, qos: 1, retain: retain)
            queueFull.clear()
        } catch where error.code == .queueFull {
            // Said once while the broker is away and the queue stays full, not once a message.
            if queueFull.first() { logger.warning("the broker is away and the queue is full: not published", metadata: ["topic": "\(topic)"]) }
        } catch where error.code == .stopped {
            // flapd is stopping: what is left is published on the next start.
        } catch {
            logger.warning("could not publish", metadata: ["topic": "\(topic)", "error": "\(error)"])
        }
    }

    static func id(in payload: [UInt8]) -> String? {
        (try? JSONValue(parsing: payload))?["id"]?.string
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

/// A receipt as published on `<base>/<device>/receipt`; absent fields are left out.
struct ReceiptBody: Encodable {
    var id: String?
    var sender: String?
    var status: String
    var reason: String?
    var warnings: [String]?
    var duplicate: Bool?
    var source: String?
    var device: String
    var at: String
}

/// `ha/room`: the kiosk's room for Home Assistant's sensors.
struct RoomSummaryBody: Encodable {
    var room: String?
    var members: Int
    var syncedPairs: Int
}

/// Home Assistant's event for a message shown (`event_type` is what its event entity reads).
struct DisplayedEvent: Encodable {
    var eventType: String
    var message: String
    var sender: String?
    var panel: String
    var text: String
}

/// The retained state topic's payload: the board a panel rests on, and the message it shows.
struct StateBody: Encodable {
    var panel: String
    var codes: [[Int]]
    var text: [String]
    var message: String?
}

extension JSONEncoder {
    /// Keys in order, as receipts have always been written. JSONEncoder is thread-safe.
    static let sorted: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// Home Assistant's snake_case keys, in order.
    static let snakeCaseSorted: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}

/// Whether the "could not publish" warning was already given since the last success.
final class QueueFullWarning: Sendable {
    private let said = Mutex(false)
    func first() -> Bool { said.withLock { said in defer { said = true }; return !said } }
    func clear() { said.withLock { $0 = false } }
}

/// The bridge's current client, replaced once if the broker needs MQTT 3.1.1.
final class CurrentClient: Sendable {
    private let client: Mutex<MQTTClient>
    init(_ client: MQTTClient) { self.client = Mutex(client) }
    var current: MQTTClient { client.withLock { $0 } }
    func replace(with client: MQTTClient) { self.client.withLock { $0 = client } }
}

import FlapCore
import FlapJSON
import FlapMQTTClient
import FlapMessaging
import FlapMetrics
import FlapPictures
import FlapStorage
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
    /// The connection's settings.
    public let settings: MQTTSettings
    private let intake: MessageIntake
    private let metrics: FlapMetrics
    private let logger: Logger
    private let clients: CurrentClient
    private var client: MQTTClient { clients.current }
    private let topics: DeviceTopics
    private let discovery: HomeAssistantDiscovery
    private let options: MQTTOptions
    private let link: MQTTLink
    private let publisher: TopicPublisher
    private let boards: RetainedBoards
    private let receipts: ReceiptPublisher
    /// What is kept on the broker, published again on each connection, the boards' first.
    private let outputs: Mutex<[any RetainedOutput]>
    private let stateDirectory: String
    private let controls: ControlTopics
    private let messages: MessageTopics
    /// Counts connections made and lost: a message held back by a storage fault stops being
    /// offered again once its connection is gone (the broker delivers it again on the next).
    private let connectionEpoch = Mutex(0)
    /// The connection to the broker as it stands.
    public var status: MQTTLinkStatus { link.current }

    /// `panels`: the panels' ids, the first the one `state` shows; with several, each is also
    /// published on `state/<panel>` and is a Home Assistant device of its own.
    public init(
        settings: MQTTSettings, password: String?, intake: MessageIntake, metrics: FlapMetrics,
        stateDirectory: String, panels: [String] = [], room: Bool = false, logger: Logger
    ) throws(MQTTError) {
        self.settings = settings
        self.intake = intake
        self.metrics = metrics
        self.logger = logger
        let topics = DeviceTopics(settings)
        self.topics = topics
        discovery = HomeAssistantDiscovery(settings: settings, stateDirectory: stateDirectory, panels: panels, room: room)
        var options = settings.options(clientID: "flapd-\(settings.deviceID)", password: password)
        options.manualAcknowledgement = true
        options.onAcknowledged = { [metrics] delay in metrics.mqttAcknowledged(after: delay) }
        options.will = .init(topic: topics.name(.availability), payload: Array("offline".utf8), qos: 1, retain: true)
        self.options = options
        link = MQTTLink(broker: "\(settings.host):\(settings.port)", protocolVersion: options.protocolVersion == .v5 ? "5" : "3.1.1")
        let clients = CurrentClient(try MQTTClient(options: options))
        self.clients = clients
        let publisher = TopicPublisher(topics: topics, clients: clients, logger: logger)
        self.publisher = publisher
        let boards = RetainedBoards(publisher: publisher, panels: panels, homeAssistant: settings.homeAssistant)
        self.boards = boards
        outputs = Mutex([boards])
        self.stateDirectory = stateDirectory
        let receipts = ReceiptPublisher(publisher: publisher, now: intake.now)
        self.receipts = receipts
        let controls = ControlTopics(publisher: publisher, homeAssistant: settings.homeAssistant, logger: logger)
        self.controls = controls
        messages = MessageTopics(topics: topics, intake: intake, receipts: receipts, controls: controls)
    }

    /// Gives the bridge the controls Home Assistant's entities change.
    public func attach(_ controls: any BoardControls) { self.controls.attach(controls) }

    /// What a panel did, on the broker: its board, retained, as JSON on `state` and as the picture
    /// of `/v1/board.png` on `board.png` (Home Assistant's image entity), published again on every
    /// connection; and each message that comes to rest as Home Assistant's event.
    public func take(_ event: PanelEvent) async {
        switch event {
        case .resting(let panel, let board, let messageId): boards.publishState(panel: panel, board: board, messageId: messageId)
        case .displayed(let panel, let board, let messageId, _):
            boards.publishState(panel: panel, board: board, messageId: messageId)
            if let messageId { await announceDisplayed(panel: panel, board: board, messageId: messageId) }
        case .planStarted, .planPlaying: break
        }
    }

    /// An output of a feature's, kept on the broker: made with what it publishes through, and
    /// published again on every connection.
    public func retained<Output: RetainedOutput>(_ make: (MQTTOutlet) -> Output) -> Output {
        let output = make(MQTTOutlet(publisher: publisher, discovery: settings.homeAssistant ? discovery : nil, stateDirectory: stateDirectory))
        outputs.withLock { $0.append(output) }
        return output
    }

    /// A message came to rest on a panel: Home Assistant's event entity fires with its sender
    /// and text, so an automation can follow ("when Mum's message shows, flash the hall light").
    private func announceDisplayed(panel: String, board: Board, messageId: String) async {
        guard settings.homeAssistant else { return }
        let receipt = try? await intake.inbox.receipt(id: messageId)
        let event = DisplayedEvent(
            eventType: "displayed", message: messageId, sender: receipt?.sender, panel: panel,
            text: board.lines.map { $0.trimmed }.filter { !$0.isEmpty }.joined(separator: " "))
        guard let data = try? JSONEncoder.snakeCaseSorted.encode(event) else { return }
        publisher.publish(.homeAssistantDisplayed, Array(data))
    }

    /// Connects, takes messages and keeps what is retained published, until flapd stops.
    public func run() async throws {
        client.start()
        let events = await intake.inbox.events()
        await withDiscardingTaskGroup { group in
            // Receipts, published as the inbox decides them, until the bridge stops.
            group.addTask { for await event in events { self.receipts.announce(event) } }
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
        try? client.publish(topics.name(.availability), Array("offline".utf8), qos: 1, retain: true)
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
            logger.info(
                "connected to the MQTT broker",
                metadata: ["broker": "\(settings.host):\(settings.port)", "session": "\(sessionPresent ? "resumed" : "new")"])
            subscribe()
            try? client.publish(topics.name(.availability), Array("online".utf8), qos: 1, retain: true)
            if settings.homeAssistant { discovery.announce(client) }
            for output in outputs.withLock({ $0 }) { output.republish() }
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
        for filter in topics.subscriptions {
            // QoS 2 allowed: each message arrives with the QoS it was published with.
            do { try client.subscribe(filter, qos: 2) } catch {
                logger.error("cannot subscribe", metadata: ["topic": "\(filter)", "error": "\(error)"])
            }
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
            guard let queued = try await messages.queue(message) else { return client.acknowledge(message) }
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
                        let source = self.topics.kind(of: message.topic).source
                        receipts.publishRejection(id: MessageTopics.id(in: message.payload), reason: errors.description, source: source)
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
                    receipts.publishRejection(
                        id: MessageTopics.id(in: message.payload), reason: "flapd could not store it: \(error)",
                        source: topics.kind(of: message.topic).source)
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
        return try? await messages.queue(message)
    }

    /// The source and sender of what Home Assistant's text entity sends.
    static let homeAssistant = "home-assistant"

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

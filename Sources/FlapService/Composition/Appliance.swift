import FlapCore
import FlapDisplay
import FlapHTTP
import FlapHeartRate
import FlapMQTT
import FlapMembers
import FlapMessaging
import FlapMetrics
import FlapPresence
import FlapPrimitives
import FlapSetup
import FlapSources
import FlapStorage
import FlapTime
import FlapVestaboard
import FoundationEssentials
import Logging
import ServiceLifecycle
import Synchronization
import UnixSignals

/// flapd put together from its configuration: the inbox, each panel, both APIs, systemd
/// notification, housekeeping; run as one service group that SIGTERM shuts down gracefully.
public final class Appliance: Sendable {
    /// flapd's version.
    public static let version = Release.version

    /// Where it keeps its state.
    public let stateDirectory: StateDirectory
    /// The messages, slots and receipts.
    public let inbox: Inbox
    let panels: [PanelRuntime]
    let sound: ClackPlayer<ApplianceClock>?
    let metrics = FlapMetrics()
    let calibration: Calibration
    /// The heart-rate sources, when any are configured.
    public let heartRate: HeartRateHub?
    /// Writes waiting for (or done with) real Vestaboards.
    let outbox: DeliveryQueue?
    let services: [any Service]
    /// The ports the APIs listen on, once they do (useful with port 0).
    public let ports = BoundPorts()
    /// The service group, once ``run(signals:)`` has made it.
    private let running = Mutex<ServiceGroup?>(nil)
    private let logger: Logger

    /// The appliance `configuration` describes, its services made and not yet run, on `time` (a
    /// test's virtual clock, or the real one); `drawInTerminal` draws a simulated panel on stdout.
    /// `settings`: the settings of the page, when they are kept (flapd's command keeps them).
    public init(
        configuration: FlapdConfiguration, drawInTerminal: Bool, time: ApplianceTime = .real, settings: (any SettingsKeeper)? = nil,
        logger: Logger
    ) async throws {
        self.logger = logger
        stateDirectory = try StateDirectory(explicit: configuration.stateDirectory)
        let storage = StorageHealth(logger: logger)
        inbox = try Self.database(stateDirectory.file("inbox.sqlite"), purpose: "inbox", health: storage) {
            try Inbox(path: $0, rules: configuration.messages, health: storage)
        }
        let outboxOnDemand = DeliveryQueueOnDemand(path: stateDirectory.file("outbox.sqlite"), health: storage)
        let clockTrust = ClockTrust(setting: configuration.time.clock, stateDirectory: stateDirectory.path)
        let savedSound = SavedSound(directory: stateDirectory.path)
        let clack = try Self.clackSample(configuration.sound)
        sound = Self.player(savedSound.applied(to: configuration.sound), sample: clack, time: time, logger: logger)
        calibration = Calibration(directory: stateDirectory.path)
        let drivers = try await Self.drivers(
            configuration.panels, inbox: inbox, calibration: calibration, outbox: outboxOnDemand, time: time, logger: logger)
        outbox = outboxOnDemand.opened

        // The sources: everything that turns into messages goes through one intake.
        var intake = MessageIntake(
            inbox: inbox, boardSize: drivers[0].configuration.size ?? .flagship, flap62: drivers[0].configuration.drum.flap62, now: time.now)
        intake.drum = drivers[0].configuration.drum
        intake.moduleDrums = drivers[0].configuration.moduleDrums
        intake.verdicts = { [metrics] in metrics.count($0) }
        intake.otherPanels = drivers.dropFirst().compactMap { driver in
            let panel = driver.configuration
            return panel.size.map {
                var flaps = PanelFlaps(id: panel.id, size: $0, flap62: panel.drum.flap62 ?? Flap62(defaultFor: $0), drum: panel.drum)
                flaps.moduleDrums = panel.moduleDrums
                return flaps
            }
        }
        let zone = ZoneRules.current()
        intake.localProps = LocalProps(zone: zone)
        let sources =
            configuration.sources.isEmpty
            ? nil
            : SourceHub(
                definitions: configuration.sources, zone: zone, stateDirectory: stateDirectory.path, clock: time.clock,
                now: time.now, metrics: metrics, logger: logger)
        if let sources { intake.sourceProps = { sources.shelf.props(at: $0) } }
        let statePath = stateDirectory.path
        let triggers = sources.map {
            TriggerRunner(
                definitions: configuration.triggers, shelf: $0.shelf, intake: intake, clock: time.clock, now: time.now,
                stateDirectory: statePath, logger: logger)
        }
        let schedules = ScheduleRunner(
            inbox: inbox, intake: intake, time: time, trust: { [clockTrust] in clockTrust.verdict() },
            fromFile: configuration.schedules, location: configuration.location, logger: logger)
        let mqttPassword = try configuration.mqtt?.passwordFile.map { try Secret.file($0).read(purpose: "MQTT password") }
        let mirrors = try configuration.mirrors.map { try MirrorRunner($0, intake: intake, time: time, logger: logger) }
        heartRate = try HeartRateService.hub(configuration.sensors, metrics: metrics, logger: logger)
        let room = try RoomRunner.room(configuration.room, mqtt: configuration.mqtt, password: mqttPassword, hub: heartRate, logger: logger)
        let mqtt = try Self.bridge(
            configuration.mqtt, password: mqttPassword, intake: intake, metrics: metrics,
            stateDirectory: stateDirectory, panels: drivers.map(\.configuration.id), room: room != nil, logger: logger)

        // Who may use the board: the household, and until it has an owner, whoever reads its setup code.
        let access = AccessStore(path: stateDirectory.file("access.json"), legacySessions: stateDirectory.file("sessions.json"), logger: logger)
        let presence = PresenceBook(access: access, path: stateDirectory.file("presence.json"), logger: logger)
        // An earlier version made the API key at its first start: a key file before the secrets
        // are read means a board someone already reached by its key.
        let ownerSignedIn = await access.ownerHasSession()
        let claim = try BoardClaim(
            stateDirectory: stateDirectory.path, owned: configuration.api.key != nil || ownerSignedIn,
            earlierVersion: FileManager.default.fileExists(atPath: stateDirectory.file("api-key")), clock: time.clock, now: time.now,
            logger: logger)

        // The outputs: each panel's runtime, and the room's chime; the controls over them. What
        // the panels do reaches the pages, MQTT and the metrics as events each subscribes to,
        // from before the first is told.
        let live = LiveBoards()
        let panelEvents = Watchers<PanelEvent>()
        var subscribers: [any Service] = [
            EventSubscriber(events: panelEvents.watch()) { await live.take($0) }, EventSubscriber(events: panelEvents.watch(), take: metrics.take)
        ]
        if let mqtt { subscribers.append(EventSubscriber(events: panelEvents.watch(), take: mqtt.take)) }
        let controls = ApplianceControls(
            inbox: inbox, sound: sound, savedSound: savedSound, directory: stateDirectory.path,
            fallback: configuration.panels[0].transition, now: time.now)
        if let mqtt {
            mqtt.attach(controls)
            let retained = mqtt.retained { RetainedControls(outlet: $0) }
            retained.publish(await controls.controlState())
            subscribers.append(EventSubscriber(events: controls.changes(), take: retained.publish))
        }
        panels = try await Self.runtimes(
            drivers, inbox: inbox, metrics: metrics, drawInTerminal: drawInTerminal, sound: sound,
            room: room, setup: SetupShow(claim: claim), events: panelEvents, clockTrust: clockTrust, pause: controls.pause, time: time,
            logger: logger)
        await controls.attach(panels)
        var bell: KioskBell?
        if let room, configuration.panels.contains(where: { $0.policy == .kiosk }) {
            bell = try KioskBell.make(configuration.room, room: room, sound: sound, clock: time.clock, logger: logger)
        }

        // The APIs, over what is above.
        let boards = ApplianceBoards(
            panels: panels, sound: sound, clack: clack, soundSettings: configuration.sound, savedSound: savedSound,
            calibrationStore: calibration, controls: controls)
        let parts = ApplianceParts(
            intake: intake, boards: boards, metrics: metrics, heartRate: heartRate, room: room, outbox: outbox,
            deliveryWorkers: drivers.flatMap(\.deliveries), live: live, mqtt: mqtt, clockTrust: clockTrust,
            schedules: schedules, sources: sources.map { ApplianceSources(hub: $0, triggers: triggers, now: time.now) }, access: access,
            presence: presence, setup: claim,
            time: time, settings: settings)
        let listeners = try Self.listeners(
            configuration, parts: parts, secrets: try ApplianceSecrets(configuration, in: stateDirectory, logger: logger),
            state: stateDirectory, ports: ports, logger: logger)

        var services: [any Service] = panels
        services += subscribers
        services += listeners
        services += [
            Housekeeping(inbox: inbox, outbox: outbox, now: time.now, logger: logger), HeapGiveBack(), LiveBoardsHeartbeat(live: live),
            TimedEvents(
                releases: ReleaseTimer(inbox: inbox, time: time, trust: { [clockTrust] in clockTrust.verdict() }, logger: logger),
                schedules: schedules, clockTrust: clockTrust)
        ]
        services.append(SetupService(claim: claim))
        let presenceOnMQTT = mqtt?.retained { RetainedPresence(outlet: $0) }
        services.append(
            PresenceService(
                book: presence, relay: PresenceRelay(book: presence, live: live, publish: { presenceOnMQTT?.publish($0) }), clock: time.clock))
        if let announcement = Self.announcement(listen: configuration.listen, ports: ports, logger: logger) { services.append(announcement) }
        if let mqtt { services.append(mqtt) }
        if let heartRate { services.append(HeartRateService(hub: heartRate)) }
        if let room { services.append(RoomRunner(room: room, summary: mqtt?.retained { RetainedRoom(outlet: $0) })) }
        if let bell { services.append(bell) }
        services += mirrors
        if let sources { services.append(SourcesService(hub: sources, triggers: triggers)) }
        let panelsNow = boards
        services.append(
            SystemdNotifier(
                ready: { [ports] in await ports.waitUntilBound() != nil }, alive: { _ = await panelsNow.panels() },
                logger: logger))
        self.services = services
    }

    /// Runs until one of `signals` (SIGTERM or SIGINT) or ``stop()``, then stops every service
    /// and leaves the panels safe.
    public func run(signals: [UnixSignal] = [.sigterm, .sigint]) async throws {
        let group = ServiceGroup(
            configuration: .init(services: services.map { .init(service: $0) }, gracefulShutdownSignals: signals, logger: logger))
        running.withLock { $0 = group }
        try await group.run()
    }

    /// Stops as SIGTERM does: each service gracefully, the panels left safe. For an appliance
    /// run in a process of others' (the tests'), where signals are not its own.
    public func stop() async {
        await running.withLock { $0 }?.triggerGracefulShutdown()
    }

    /// Where the APIs are, for the startup log: addresses and the files holding the secrets.
    public func announce(listen: String) async {
        guard let bound = await ports.waitUntilBound() else { return }
        let (native, local) = (bound.native, bound.local)
        logger.notice(
            "flapd \(Self.version) running",
            metadata: [
                "api": "http://\(listen):\(native)/v1 (key in \(stateDirectory.file("api-key")) unless configured)",
                "https": "https://\(listen):\(bound.https)/ (phones: install the authority from http://THIS-MACHINE:\(native)/install first)",
                "viewer": "key in \(stateDirectory.file("viewer-key")) unless configured: reads the board, its picture and its events only",
                "local_api": "http://\(listen):\(local) (enablement token in \(stateDirectory.file("local-api-enablement-token")) unless configured)",
                "state": "\(stateDirectory.path)"
            ])
    }
}

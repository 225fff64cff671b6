import FlapDisplay
import FlapCore
import FlapDiscovery
import FlapHardware
import FlapHTTP
import FlapHeartRate
import FlapRooms
import FlapVestaboard
import FlapWeb
import FlapLinux
import FlapMembers
import FlapMessaging
import FlapMetrics
import FlapMQTT
import FlapStorage
import FlapTLS
import FlapQR
import FlapTime
import FoundationEssentials
import Hummingbird
import HummingbirdTLS
import Logging
import ServiceLifecycle
import UnixSignals

/// flapd put together from its configuration: the inbox, each panel, both APIs, systemd
/// notification, housekeeping; run as one service group that SIGTERM shuts down gracefully.
public final class Appliance: Sendable {
    public static let version = Release.version

    public let stateDirectory: StateDirectory
    public let inbox: Inbox
    let panels: [PanelRuntime]
    let sound: ClackPlayer<ContinuousClock>?
    let metrics = FlapMetrics()
    let calibration: Calibration
    /// The heart-rate sources, when any are configured.
    public let heartRate: HeartRateHub?
    /// Writes waiting for (or done with) real Vestaboards.
    let outbox: DeliveryQueue?
    let services: [any Service]
    /// The ports the APIs listen on, once they do (useful with port 0).
    public let ports = BoundPorts()
    private let logger: Logger

    public init(configuration: FlapdConfiguration, drawInTerminal: Bool, logger: Logger) async throws {
        self.logger = logger
        stateDirectory = try StateDirectory(explicit: configuration.stateDirectory)
        let storage = StorageHealth(logger: logger)
        inbox = try Self.database(stateDirectory.file("inbox.sqlite"), purpose: "inbox", health: storage) {
            try Inbox(path: $0, rules: configuration.rules, health: storage)
        }
        let clockTrust = ClockTrust(setting: configuration.clock, stateDirectory: stateDirectory.path)
        let savedSound = SavedSound(directory: stateDirectory.path)
        let sound = try Self.player(savedSound.applied(to: configuration.sound), logger: logger)
        self.sound = sound
        let calibration = Calibration(directory: stateDirectory.path)
        self.calibration = calibration
        // The boards' delivery queue, opened when a Vestaboard panel needs it.
        let outbox: DeliveryQueue? = configuration.panels.contains { $0.driver == .vestaboard }
            ? try Self.database(stateDirectory.file("outbox.sqlite"), purpose: "Vestaboard delivery queue", health: storage) {
                try DeliveryQueue(path: $0, health: storage)
            }
            : nil
        self.outbox = outbox
        var drivers: [PanelDriver] = []
        for panel in configuration.panels {
            do {
                drivers.append(try await PanelDriver.make(panel, saved: try await inbox.panelState(panel.id)?.codes,
                                                          calibration: calibration, outbox: { outbox! }, logger: logger))
            } catch {
                for driver in drivers { await driver.panel.shutDown(); await driver.stopCompanion() }
                throw ServiceError("panel \(panel.id): \(error)")
            }
        }
        let intake = MessageIntake(inbox: inbox, boardSize: drivers[0].configuration.size ?? .flagship, now: { Date() })
        let schedules = ScheduleRunner(inbox: inbox, intake: intake, time: .system, trust: { [clockTrust] in clockTrust.verdict() },
                                       fromFile: configuration.schedules, logger: logger)
        var mqtt: MQTTBridge?
        let mqttPassword = try configuration.mqtt?.passwordFile.map { try resolve(.file($0), purpose: "MQTT password") }
        if let settings = configuration.mqtt {
            let password = mqttPassword
            do {
                mqtt = try MQTTBridge(settings: settings, password: password, intake: intake, metrics: metrics,
                                      stateDirectory: stateDirectory.path, logger: logger)
            } catch {
                throw ServiceError("MQTT: \(error)")
            }
        }
        let mirrors = try configuration.mirrors.map { try MirrorRunner($0, intake: intake, logger: logger) }
        let heartRate = try HeartRateService.hub(configuration.sensors, metrics: metrics, logger: logger)
        self.heartRate = heartRate
        let room = try RoomRunner.room(configuration.room, mqtt: configuration.mqtt, password: mqttPassword, hub: heartRate, logger: logger)
        let live = LiveBoards()
        var panels: [PanelRuntime] = []
        for (index, driver) in drivers.enumerated() {
            // Only one panel can be drawn in place, and one sound device carries one panel's clacks.
            panels.append(try await PanelRuntime(driver: driver, inbox: inbox, metrics: metrics,
                                                 drawInTerminal: drawInTerminal && index == 0,
                                                 sound: index == 0 ? sound : nil, mqtt: index == 0 ? mqtt : nil, room: room, live: live,
                                                 clockTrust: clockTrust, logger: logger))
        }
        self.panels = panels
        var bell: KioskBell?
        if let room, configuration.panels.contains(where: { $0.policy == .kiosk }) {
            bell = try KioskBell.make(configuration.room, room: room, sound: sound, logger: logger)
        }

        let apiKey = try Self.secret(configuration.apiKey, file: "api-key", purpose: "API key", in: stateDirectory, logger: logger)
        let viewerKey = try Self.secret(configuration.viewerKey, file: "viewer-key", purpose: "viewer key (reads the board only)",
                                        in: stateDirectory, logger: logger)
        let token = try Self.secret(configuration.localAPIToken, file: "local-api-enablement-token",
                                    purpose: "Local API enablement token", in: stateDirectory, logger: logger)
        let localKey = try Self.secret(nil, file: "local-api-key", purpose: "Local API key", in: stateDirectory, logger: logger)

        let boards = ApplianceBoards(panels: panels, sound: sound, soundSettings: configuration.sound, savedSound: savedSound,
                                     calibrationStore: calibration)
        let metrics = self.metrics
        let bridge = mqtt
        let mqttStatus: (@Sendable () -> any Encodable & Sendable)? = bridge.map { bridge in { @Sendable in bridge.status } }
        let workers = panels.compactMap(\.delivery)
        let native = NativeAPI(intake: intake, panels: boards, metrics: metrics, apiKey: apiKey, viewerKey: viewerKey, version: Self.version,
                               sensors: { await heartRate?.report() ?? [] }, rooms: room.map { RoomAccessAdapter(service: $0) },
                               deliveries: outbox.map { ApplianceDeliveries(queue: $0, workers: workers, metrics: metrics) }, live: live,
                               mqtt: mqttStatus, clock: { [clockTrust] in clockTrust.verdict() }, schedules: schedules,
                               access: AccessStore(path: stateDirectory.file("access.json"), legacySessions: stateDirectory.file("sessions.json"), logger: logger),
                               links: InvitationLinks(machineName: ProcessInfo.processInfo.hostName, httpsPort: { [httpsNow = ports.httpsNow] in httpsNow.value },
                                                      qrCode: { try? QRCode($0).svg(title: "the link") }),
                               mcpHosts: MCPHosts(listen: configuration.listen, machineName: ProcessInfo.processInfo.hostName,
                                                  allowed: configuration.allowedHosts))
        let local = LocalAPI(intake: intake, panels: boards, metrics: metrics, enablementToken: token, apiKey: localKey)
        let ports = self.ports
        let quiet = Logger(label: "http", factory: { _ in SwiftLogNoOpLogHandler() })
        let certificates = try Self.certificates(configuration, in: stateDirectory, logger: logger)
        let nativeRouter = native.router()
        WebPage.add(to: nativeRouter, authority: AuthorityDownload(
            certificatePEM: try certificates.authority?.certificatePEM(), name: certificates.authority?.name ?? "",
            httpsPort: { [httpsNow = ports.httpsNow] in httpsNow.value }, qrCode: { try? QRCode($0).svg(title: "the certificate's download") }))
        let limits = ConnectionLimits()
        let nativeApp = Application(
            router: nativeRouter, server: limits.server(.plain(redirectingPagesTo: { [httpsNow = ports.httpsNow] in httpsNow.value })),
            configuration: .init(address: .hostname(configuration.listen, port: configuration.apiPort), serverName: "flapd"),
            onServerRunning: { await ports.bound(.native, port: $0.localAddress?.port) }, logger: quiet)
        let httpsApp = Application(
            router: nativeRouter, server: try .tls(limits.server(.tls), tlsConfiguration: certificates.certificate.tlsConfiguration()),
            configuration: .init(address: .hostname(configuration.listen, port: configuration.httpsPort), serverName: "flapd"),
            onServerRunning: { await ports.bound(.https, port: $0.localAddress?.port) }, logger: quiet)
        let localApp = Application(
            router: local.router(), server: limits.server(),
            configuration: .init(address: .hostname(configuration.listen, port: configuration.localAPIPort), serverName: "flapd"),
            onServerRunning: { await ports.bound(.local, port: $0.localAddress?.port) }, logger: quiet)
        let notifier = SystemdNotifier(
            ready: { await ports.waitUntilBound() != nil },
            alive: { _ = await boards.panels() },
            logger: logger)
        let nativeListener = Listener(name: "native API", address: "\(configuration.listen):\(configuration.apiPort)", key: "--api-port or [api] port", app: nativeApp)
        let httpsListener = Listener(name: "HTTPS API", address: "\(configuration.listen):\(configuration.httpsPort)", key: "--https-port or [api] https_port", app: httpsApp)
        let localListener = Listener(name: "Local API", address: "\(configuration.listen):\(configuration.localAPIPort)", key: "--local-api-port or [local_api] port", app: localApp)
        var services: [any Service] = panels
        services += [nativeListener, httpsListener, certificates, localListener, Housekeeping(inbox: inbox, outbox: outbox, logger: logger), HeapGiveBack(), LiveBoardsHeartbeat(live: live),
                     TimedEvents(releases: ReleaseTimer(inbox: inbox, time: .system, trust: { [clockTrust] in clockTrust.verdict() }, logger: logger),
                                 schedules: schedules, clockTrust: clockTrust)]
        if !["127.0.0.1", "localhost", "::1"].contains(configuration.listen) {
            let host = ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? "flapd"
            services.append(AvahiAnnouncement(name: "VestaWidget on \(host)", ports: { await ports.waitUntilBound().map { ($0.native, $0.https) } },
                                              logger: logger))
        }
        if let mqtt { services.append(mqtt) }
        if let heartRate { services.append(HeartRateService(hub: heartRate)) }
        if let room { services.append(RoomRunner(room: room)) }
        if let bell { services.append(bell) }
        services += mirrors
        services.append(notifier)
        self.services = services
    }

    /// Runs until SIGTERM or SIGINT, then stops every service and leaves the panels safe.
    public func run() async throws {
        let group = ServiceGroup(configuration: .init(
            services: services.map { .init(service: $0) },
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger))
        try await group.run()
    }

    /// Where the APIs are, for the startup log: addresses and the files holding the secrets.
    public func announce(listen: String) async {
        guard let bound = await ports.waitUntilBound() else { return }
        let (native, local) = (bound.native, bound.local)
        logger.notice("flapd \(Self.version) running", metadata: [
            "api": "http://\(listen):\(native)/v1 (key in \(stateDirectory.file("api-key")) unless configured)",
            "https": "https://\(listen):\(bound.https)/ (phones: install the authority from http://THIS-MACHINE:\(native)/install first)",
            "viewer": "key in \(stateDirectory.file("viewer-key")) unless configured: reads the board, its picture and its events only",
            "local_api": "http://\(listen):\(local) (enablement token in \(stateDirectory.file("local-api-enablement-token")) unless configured)",
            "state": "\(stateDirectory.path)",
        ])
    }

    /// The clack player, with its sample (a configured WAV file, else the synthesized clack);
    /// nil when sound is off. A sample that cannot be used stops flapd with the reason.
    static func player(_ settings: SoundSettings, logger: Logger) throws -> ClackPlayer<ContinuousClock>? {
        guard settings.enabled else { return nil }
        var sample = ClackSample.synthesized()
        if let path = settings.samplePath {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw ServiceError("cannot read the clack sample \(path) ([sound] sample)")
            }
            do {
                sample = try WAVFile.decode(Array(data), name: path)
            } catch {
                throw ServiceError("the clack sample cannot be used: \(error) ([sound] sample)")
            }
        }
        let device = settings.device
        return ClackPlayer(clock: ContinuousClock(), sample: sample, settings: settings, now: { Date() }, logger: logger) {
            try ALSAAudioOutput(device: device)
        }
    }

    /// Opens the database at `path` with `open`, moving it aside if it is damaged (flapd then
    /// starts with an empty one and says so). A disk that cannot be written stops the start with
    /// what to do.
    private static func database<T>(_ path: String, purpose: String, health: StorageHealth, _ open: (String) throws -> T) throws -> T {
        do {
            return try DatabaseFile.opening(path, health: health, open)
        } catch let fault as StorageFault {
            throw ServiceError("cannot open the \(purpose): \(fault.description)")
        } catch {
            throw ServiceError("cannot open the \(purpose) \(path): \(error)")
        }
    }

    private static func secret(_ configured: Secret?, file: String, purpose: String, in state: StateDirectory, logger: Logger) throws -> String {
        if let configured { return try resolve(configured, purpose: purpose) }
        let (value, created) = try state.secret(file)
        if created { logger.notice("made a new \(purpose)", metadata: ["file": "\(state.file(file))"]) }
        return value
    }
}

/// The panels as the APIs see them.
struct ApplianceBoards: BoardQuery {
    let panels: [PanelRuntime]
    let sound: ClackPlayer<ContinuousClock>?
    let soundSettings: SoundSettings
    let savedSound: SavedSound
    let calibrationStore: Calibration

    func panels() async -> [PanelView] {
        var views: [PanelView] = []
        for panel in panels { views.append(await panel.view()) }
        return views
    }

    func flipDuration(to board: Board, strategy: TransitionStrategy?) async -> Duration? {
        guard let first = panels.first, board.size == first.configuration.size else { return nil }
        return await first.motion.duration(to: board, transition: strategy.flatMap { try? Transition(strategy: $0) })
    }

    func calibration(panel id: String) async -> Calibrated? {
        guard let panel = panels.first(where: { $0.configuration.id == id }), let engine = panel.engine,
              let size = panel.configuration.size else { return nil }
        return Calibrated(panel: id, rows: size.rows, columns: size.columns, offsets: engine.modules().map(\.offsetSteps),
                          stepsPerFlap: Double(engine.profile.stepsPerTurn) / Double(engine.profile.flaps))
    }

    func calibrate(panel id: String, row: Int, column: Int, offsetSteps: Int) async throws -> Calibrated {
        guard let panel = panels.first(where: { $0.configuration.id == id }), let engine = panel.engine,
              let size = panel.configuration.size else { throw ServiceError("no panel \(id) to calibrate") }
        engine.calibrate((row - 1) * size.columns + column - 1, offsetSteps: offsetSteps)
        try calibrationStore.save(engine.modules().map(\.offsetSteps), panel: id)
        return await calibration(panel: id)!
    }

    func soundStatus() async -> (state: String, reason: String?) {
        guard let sound else { return ("disabled", nil) }
        let state = await sound.state
        return (state.name, state.reason)
    }

    func sound() async -> SoundView {
        guard let sound else {
            return SoundView(enabled: false, state: "disabled", reason: nil, mute: false, volume: 0, quietHours: nil, device: soundSettings.device)
        }
        let (settings, state) = (await sound.currentSettings, await sound.state)
        return SoundView(enabled: true, state: state.name, reason: state.reason, mute: settings.mute, volume: settings.volume,
                         quietHours: settings.quietHours?.description, device: settings.device)
    }

    func setSound(mute: Bool, volume: Int, quietHours: String?) async throws -> SoundView {
        guard let sound else { throw ServiceError("sound is off ([sound] enabled = false)") }
        await sound.adjust(mute: mute, volume: volume, quietHours: quietHours.flatMap(QuietHours.init))
        try savedSound.save(await sound.currentSettings)
        return await self.sound()
    }
}

/// Messages sent for later, released at their instants, and recurring messages, fired at theirs,
/// until shutdown; the last time flapd saw
/// on a trusted clock kept every quarter of an hour and at the end (``ClockTrust``'s last rule).
struct TimedEvents: Service {
    let releases: ReleaseTimer<ContinuousClock>
    let schedules: ScheduleRunner<ContinuousClock>
    let clockTrust: ClockTrust

    func run() async throws {
        try? await cancelWhenGracefulShutdown { [clockTrust] in
            await withDiscardingTaskGroup { group in
                group.addTask { await releases.run() }
                group.addTask { await schedules.run() }
                group.addTask {
                    while !Task.isCancelled {
                        clockTrust.recordSeen()
                        try? await Task.sleep(for: .seconds(900))
                    }
                }
            }
        }
        clockTrust.recordSeen()
    }
}

/// Beats every watching page's event stream, so a page that has gone is let go even while the
/// boards are still (``LiveBoards/heartbeat()``).
struct LiveBoardsHeartbeat: Service {
    let live: LiveBoards

    func run() async throws {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            guard (try? await cancelWhenGracefulShutdown({ try await Task.sleep(for: LiveBoards.heartbeatPeriod) })) != nil else { return }
            await live.heartbeat()
        }
    }
}

/// Every few minutes, the heap's free pages given back to the kernel (``ProcessHeap``): without
/// it, months of messages and connections leave flapd's private memory a little larger each hour.
struct HeapGiveBack: Service {
    func run() async throws {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            guard (try? await cancelWhenGracefulShutdown({ try await Task.sleep(for: ProcessHeap.giveBackPeriod) })) != nil else { return }
            ProcessHeap.giveBack()
        }
    }
}

/// Once an hour: forgets final receipts after 30 days (and beyond the newest 50 000) and
/// finished Vestaboard writes after 30 days (beyond the newest 1 000), and checkpoints both
/// databases' WAL files.
struct Housekeeping: Service {
    let inbox: Inbox
    let outbox: DeliveryQueue?
    let logger: Logger

    func run() async throws {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            let monthAgo = Date().addingTimeInterval(-Inbox.receiptRetention)
            do {
                try await inbox.prune(before: monthAgo)
                try outbox?.prune(before: monthAgo)
            } catch is StorageFault {
                // Said once by the storage's health; tried again in an hour.
            } catch {
                logger.warning("could not prune old receipts", metadata: ["error": "\(error)"])
            }
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: .seconds(3600)) }
        }
        // On the way out, what is queued committed, then the WAL copied into the database and
        // emptied: the next start has nothing to recover.
        await inbox.finishWriting()
        try? await inbox.checkpoint()
    }
}

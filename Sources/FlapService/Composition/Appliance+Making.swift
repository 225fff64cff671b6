import FlapCore
import FlapDiscovery
import FlapDisplay
import FlapHTTP
import FlapHardware
import FlapLinux
import FlapMQTT
import FlapMessaging
import FlapMetrics
import FlapPrimitives
import FlapRooms
import FlapStorage
import FlapTime
import FlapVestaboard
import FoundationEssentials
import Logging
import ServiceLifecycle

/// How each of the appliance's parts is made from its settings, one step of ``Appliance/init`` each.
extension Appliance {
    /// Every panel's driver, from where it was left; when one cannot be made, those made are shut
    /// down (their devices left safe) and flapd stops naming the panel. The boards' delivery
    /// queue is opened only when a panel asks for it (a Vestaboard's).
    static func drivers(
        _ panels: [PanelSettings], inbox: Inbox, calibration: Calibration, outbox: DeliveryQueueOnDemand,
        time: ApplianceTime, logger: Logger
    ) async throws -> [PanelDriver] {
        var drivers: [PanelDriver] = []
        for panel in panels {
            do {
                let context = PanelContext(
                    saved: try await inbox.panelState(panel.id)?.codes, calibration: calibration,
                    outbox: outbox.open, time: time, logger: logger)
                drivers.append(try await PanelDriver.make(panel, with: context))
            } catch {
                for driver in drivers { await driver.panel.shutDown(); await driver.stopCompanion() }
                // A fault of the state directory (the delivery queue's file) stays one: exit 73.
                throw (error as? ServiceError).map { ServiceError.inPanel(panel: panel.id, $0) }
                    ?? .panelUnavailable(panel: panel.id, reason: "\(error)")
            }
        }
        return drivers
    }

    static func bridge(
        _ settings: MQTTSettings?, password: String?, intake: MessageIntake, metrics: FlapMetrics,
        stateDirectory: StateDirectory, panels: [String], room: Bool, logger: Logger
    ) throws -> MQTTBridge? {
        guard let settings else { return nil }
        do {
            return try MQTTBridge(
                settings: settings, password: password, intake: intake, metrics: metrics,
                stateDirectory: stateDirectory.path, panels: panels, room: room, logger: logger)
        } catch {
            throw ServiceError.mqttSettings(problem: "\(error)")
        }
    }

    /// Each panel's runtime, telling `events` what it does. Only the first is drawn in the
    /// terminal; the sound device plays the clacks of the first panel that is not a browser's
    /// (browsers play their own). A panel whose policy is `kiosk` shows the room.
    static func runtimes(
        _ drivers: [PanelDriver], inbox: Inbox, metrics: FlapMetrics, drawInTerminal: Bool,
        sound: ClackPlayer<ApplianceClock>?, room: RoomService<ContinuousClock>?, setup: SetupShow?,
        events: Watchers<PanelEvent>, clockTrust: ClockTrust, pause: BoardPause, time: ApplianceTime, logger: Logger
    ) async throws -> [PanelRuntime] {
        var panels: [PanelRuntime] = []
        let speaker = drivers.firstIndex { !$0.configuration.kind.playsItsOwnClacks }
        for (index, driver) in drivers.enumerated() {
            let id = driver.configuration.id
            for delivery in driver.deliveries { await delivery.observe { metrics.boardWrite(panel: id, state: $0.state.rawValue) } }
            var content: PanelContent?
            if driver.configuration.policy == .kiosk {
                guard let room else {
                    throw ServiceError.kioskWithoutRoom(panel: id)
                }
                content = RoomShow(room: room).show
            }
            panels.append(
                try await PanelRuntime(
                    driver: driver, inbox: inbox, metrics: metrics,
                    drawInTerminal: drawInTerminal && index == 0,
                    sound: sound, speaker: index == speaker, content: content, setup: setup, events: events,
                    clockTrust: clockTrust, pause: pause, time: time, logger: logger))
        }
        return panels
    }

    /// flapd announced on the home network, unless it listens only on this machine.
    static func announcement(listen: String, ports: BoundPorts, logger: Logger) -> AvahiAnnouncement? {
        guard !["127.0.0.1", "localhost", "::1"].contains(listen) else { return nil }
        let host = ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? "flapd"
        return AvahiAnnouncement(
            name: "VestaWidget on \(host)", ports: { await ports.waitUntilBound().map { ($0.native, $0.https) } },
            logger: logger)
    }

    /// The clack: the configured WAV file, else the synthesized one. A sample that cannot be
    /// used stops flapd with the reason.
    static func clackSample(_ settings: SoundSettings) throws -> ClackSample {
        guard let path = settings.samplePath else { return ClackSample.synthesized() }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ServiceError.unreadableSample(path: path)
        }
        do {
            return try WAVFile.decode(Array(data), name: path)
        } catch {
            throw ServiceError.unusableSample(problem: "\(error)")
        }
    }

    /// The clack player with `sample`; nil when sound is off.
    static func player(_ settings: SoundSettings, sample: ClackSample, time: ApplianceTime, logger: Logger) -> ClackPlayer<ApplianceClock>? {
        guard settings.enabled else { return nil }
        let device = settings.device
        return ClackPlayer(clock: time.clock, sample: sample, settings: settings, now: time.now, logger: logger) {
            try ALSAAudioOutput(device: device)
        }
    }

    /// Opens the database at `path` with `open`, moving it aside if it is damaged (flapd then
    /// starts with an empty one and says so). A disk that cannot be written stops the start with
    /// what to do.
    static func database<T>(_ path: String, purpose: String, health: StorageHealth, _ open: (String) throws -> T) throws -> T {
        do {
            return try DatabaseFile.opening(path, health: health, open)
        } catch let fault as StorageFault {
            throw ServiceError.databaseUnopenable(purpose: purpose, path: nil, reason: fault.description)
        } catch {
            throw ServiceError.databaseUnopenable(purpose: purpose, path: path, reason: "\(error)")
        }
    }
}

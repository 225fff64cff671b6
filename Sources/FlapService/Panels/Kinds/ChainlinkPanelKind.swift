import FlapCore
import FlapHardware
import FlapLinux
import FlapSimulated
import Logging

/// `driver = "chainlink"`: a Chainlink controller on a serial port, which counts its modules
/// itself; `device = "simulated"` puts the simulated controller on a real pseudo-terminal.
struct ChainlinkPanelKind: PanelKind {
    var name: String { "chainlink" }
    var usage: String { "=DEVICE (a serial port such as /dev/ttyUSB0)" }
    var defaultDrum: Drum { .chainlink52 }
    var simulatedUnderSimulate: Bool { true }

    /// Where the udev rules put the controller.
    static let defaultDevice = "/dev/splitflap0"
    /// How long flapd waits for a controller to say how many modules it has at start.
    static let discoveryTimeout = Duration.seconds(10)
    /// The same for flapd's own simulated controller, which has no cable or power to be
    /// missing: its silence only means a busy machine (a CI run's, with dozens of flapds at once).
    static let simulatedDiscoveryTimeout = Duration.seconds(120)

    func read(_ reader: inout TableReader, into panel: inout PanelSettings) {
        panel.device = reader.string("device")
    }

    func make(_ configuration: PanelSettings, with context: PanelContext) async throws -> PanelDriver {
        let logger = context.logger, saved = context.saved
        let clock = ContinuousClock()
        var device = configuration.device ?? Self.defaultDevice
        var stopCompanion: @Sendable () async -> Void = {}
        if device == "simulated" {
            // The real driver on a real pseudo-terminal, the simulated controller on its far side.
            let modules = configuration.size?.count ?? configuration.rows.map { $0 * 6 } ?? configuration.columns.map { $0 * 2 } ?? 12
            let (port, path) = try LinuxSerialPort.pseudoTerminal()
            let controller = SimulatedChainlinkController(port: port, clock: clock, modules: modules)
            let running = Task { await controller.run() }
            stopCompanion = {
                running.cancel(); await running.value; await port.close()
            }
            logger.info("simulated Chainlink controller with \(modules) modules on \(path)")
            device = path
        }
        let path = device
        var link = ChainlinkLink(clock: clock) { try LinuxSerialPort(path: path, settings: .chainlink) }
        var settled = configuration
        var positions: [Int]?
        var size: BoardSize
        do {
            let timeout = configuration.device == "simulated" ? Self.simulatedDiscoveryTimeout : Self.discoveryTimeout
            let found = try await ChainlinkPanel.discover(link: link, clock: clock, device: path, timeout: timeout)
            size = try PanelDriver.size(for: found.modules, configuration)
            settled.size = size
            if let drum = found.drum, drum.codes != configuration.drum.codes {
                logger.warning(
                    "\(path): the controller's drum is \"\(drum.string)\", not the configured \(configuration.drum.name); using the controller's")
                settled.drum = try Drum(string: drum.string, name: "controller")
            }
            positions = Array(found.positions.prefix(size.count))
            if found.modules > size.count {
                logger.warning("\(path): the controller has \(found.modules) modules and the board \(size.count); the rest stay blank")
            }
        } catch let error as HardwareError where configuration.size != nil {
            // The size is known: start anyway and keep trying; the board appears when the controller does.
            logger.error("\(error); starting anyway, retrying in the background")
            link = ChainlinkLink(clock: clock) { try LinuxSerialPort(path: path, settings: .chainlink) }
            // Known: the catch asks for it.
            size = configuration.size ?? .flagship
            positions = saved.flatMap { $0.count == size.count ? $0.map { configuration.drum.flap(for: $0).index } : nil }
        } catch {
            await link.stop()
            await stopCompanion()
            throw error
        }
        let info = PanelInfo(id: configuration.id, size: size, drum: settled.drum, motion: .forwardOnly, driver: name)
        let panel = ChainlinkPanel(info: info, link: link, clock: clock, device: path, positions: positions)
        await panel.start()
        let companion = stopCompanion
        return PanelDriver(
            panel: panel, configuration: settled, snapshots: nil, stopCompanion: companion)
    }
}

import FlapCore
import FlapHardware
import FlapLinux
import FlapSimulated
import FlapVestaboard
import Logging

/// A panel's driver, composed from its configuration, with the size and drum the hardware has.
struct PanelDriver: Sendable {
    let panel: any Panel
    /// The configuration with its size and drum settled.
    let configuration: PanelSettings
    /// A simulated panel's snapshots, for the terminal.
    let snapshots: AsyncStream<PanelSnapshot>?
    /// How plans must be timed for this hardware.
    let stepper: StepperProfile?
    let commandInterval: Duration?
    /// Stops what runs beside the driver (a simulated controller, the stepping thread).
    let stopCompanion: @Sendable () async -> Void
    /// Whether the modules keep their flaps across a restart of flapd (a controller does; a
    /// directly driven board homes to blank).
    var resumes = true
    /// The stepping engine of a directly driven board (for calibration).
    var engine: SteppingEngine?
    /// A simulated LED device, for the terminal to draw.
    var ledDevice: (any SimulatedPixelDevice)?
    /// An LED panel or screen as pixels, for pictures drawn elsewhere (the room's plot).
    var pixels: PixelSurface?
    /// A Vestaboard's delivery worker, for status and `flapctl queue`.
    var delivery: BoardDelivery<ContinuousClock>?
    /// The system library the hardware is reached through, when that depends on the system
    /// (`libgpiod 2.2.1 (libgpiod.so.3)`), for the log and `/v1/status`.
    var library: String?

    /// How long flapd waits for a controller to say how many modules it has at start.
    static let discoveryTimeout = Duration.seconds(10)

    static func make(_ configuration: PanelSettings, saved: [CharacterCode]?, calibration: Calibration,
                     outbox: @Sendable () throws -> DeliveryQueue, logger: Logger) async throws -> PanelDriver {
        switch configuration.driver {
        case .vestaboard: try await vestaboard(configuration, saved: saved, outbox: try outbox(), logger: logger)
        case .chainlink: try await chainlink(configuration, saved: saved, logger: logger)
        case .spi, .gpio: try await direct(configuration, calibration: calibration, logger: logger)
        case .max7219, .ws2812, .framebuffer, .hub75: try await led(configuration, saved: saved, logger: logger)
        case .simulated: await simulated(configuration, saved: saved)
        case .browser: browser(configuration, saved: saved)
        }
    }

    /// A panel that browsers show (a TV, a tablet): its motion kept on time as a simulated
    /// panel's is, drawn nowhere but in the browsers watching `/tv?panel=ID`.
    private static func browser(_ configuration: PanelSettings, saved: [CharacterCode]?) -> PanelDriver {
        var settled = configuration
        let size = configuration.size ?? .flagship
        settled.size = size
        let positions = saved.flatMap { $0.count == size.count ? $0.map { configuration.drum.flap(for: $0).index } : nil }
        let info = PanelInfo(id: configuration.id, size: size, drum: configuration.drum, motion: .forwardOnly, driver: PanelDriverKind.browser.rawValue)
        return PanelDriver(panel: SimulatedPanel(info: info, clock: ContinuousClock(), positions: positions), configuration: settled,
                           snapshots: nil, stepper: nil, commandInterval: nil, stopCompanion: {})
    }

    private static func simulated(_ configuration: PanelSettings, saved: [CharacterCode]?) async -> PanelDriver {
        var settled = configuration
        let size = configuration.size ?? .flagship
        settled.size = size
        let positions = saved.flatMap { $0.count == size.count ? $0.map { configuration.drum.flap(for: $0).index } : nil }
        let info = PanelInfo(id: configuration.id, size: size, drum: configuration.drum, motion: .forwardOnly, driver: PanelDriverKind.simulated.rawValue)
        let panel = SimulatedPanel(info: info, clock: ContinuousClock(), positions: positions)
        return PanelDriver(panel: panel, configuration: settled, snapshots: await panel.snapshots(), stepper: nil,
                           commandInterval: nil, stopCompanion: {})
    }

    private static func chainlink(_ configuration: PanelSettings, saved: [CharacterCode]?, logger: Logger) async throws -> PanelDriver {
        let clock = ContinuousClock()
        var device = configuration.device ?? PanelSettings.defaultChainlinkDevice
        var stopCompanion: @Sendable () async -> Void = {}
        if device == "simulated" {
            // The real driver on a real pseudo-terminal, the simulated controller on its far side.
            let modules = configuration.size?.count ?? configuration.rows.map { $0 * 6 } ?? configuration.columns.map { $0 * 2 } ?? 12
            let (port, path) = try LinuxSerialPort.pseudoTerminal()
            let controller = SimulatedChainlinkController(port: port, clock: clock, modules: modules)
            let running = Task { await controller.run() }
            stopCompanion = { running.cancel(); await running.value; await port.close() }
            logger.info("simulated Chainlink controller with \(modules) modules on \(path)")
            device = path
        }
        let path = device
        var link = ChainlinkLink(clock: clock) { try LinuxSerialPort(path: path, settings: .chainlink) }
        var settled = configuration
        var positions: [Int]?
        do {
            let found = try await ChainlinkPanel.discover(link: link, clock: clock, device: path, timeout: discoveryTimeout)
            settled.size = try size(for: found.modules, configuration)
            if let drum = found.drum, drum.codes != configuration.drum.codes {
                logger.warning("\(path): the controller's drum is \"\(drum.string)\", not the configured \(configuration.drum.name); using the controller's")
                settled.drum = try Drum(string: drum.string, name: "controller")
            }
            positions = Array(found.positions.prefix(settled.size!.count))
            if found.modules > settled.size!.count {
                logger.warning("\(path): the controller has \(found.modules) modules and the board \(settled.size!.count); the rest stay blank")
            }
        } catch let error as HardwareError where configuration.size != nil {
            // The size is known: start anyway and keep trying; the board appears when the controller does.
            logger.error("\(error); starting anyway, retrying in the background")
            link = ChainlinkLink(clock: clock) { try LinuxSerialPort(path: path, settings: .chainlink) }
            positions = saved.flatMap { $0.count == configuration.size!.count ? $0.map { configuration.drum.flap(for: $0).index } : nil }
        } catch {
            await link.stop()
            await stopCompanion()
            throw error
        }
        let size = settled.size!
        let info = PanelInfo(id: configuration.id, size: size, drum: settled.drum, motion: .forwardOnly, driver: PanelDriverKind.chainlink.rawValue)
        let panel = ChainlinkPanel(info: info, link: link, clock: clock, device: path, positions: positions)
        await panel.start()
        let companion = stopCompanion
        return PanelDriver(panel: panel, configuration: settled, snapshots: nil, stepper: panel.profile,
                           commandInterval: ChainlinkPanel<ContinuousClock>.commandInterval(modules: size.count),
                           stopCompanion: companion)
    }

    private static func direct(_ configuration: PanelSettings, calibration: Calibration, logger: Logger) async throws -> PanelDriver {
        var settled = configuration
        let size = configuration.size ?? BoardSize(rows: 1, columns: configuration.pins.count)
        settled.size = size
        let spi = configuration.driver == .spi
        let device = configuration.device ?? (spi ? "/dev/spidev0.0" : "gpiochip0")
        let io: any StepperIO
        var library: String?
        switch (spi, device) {
        case (true, "simulated"):
            io = ShiftRegisterChain(spi: SimulatedShiftRegisterChain(modules: size.count), modules: size.count)
        case (false, "simulated"):
            io = CoilLines(lines: SimulatedCoilBoard(modules: size.count), modules: size.count)
        case (true, _):
            io = ShiftRegisterChain(spi: try LinuxSPIDevice(path: device), modules: size.count)
        case (false, _):
            let lines = try LinuxGPIOLines(chip: device, outputs: configuration.pins.flatMap { $0.prefix(4) },
                                           inputs: configuration.pins.map { $0[4] })
            io = CoilLines(lines: lines, modules: size.count)
            library = lines.library.description
        }
        let engine = SteppingEngine(io: io, flaps: configuration.drum.count, offsets: calibration.offsets(panel: configuration.id))
        let origin = ContinuousClock.now
        let thread = RealtimeSteppingThread(engine: engine, origin: origin)
        if let refusal = thread.start() { logger.warning("\(device): \(refusal)") }
        logger.info("\(device): stepping \(size.count) modules (\(spi ? "Chainlink Driver boards on SPI" : "ULN2003 boards on GPIO")\(library.map { " through \($0)" } ?? ""))")
        let info = PanelInfo(id: configuration.id, size: size, drum: configuration.drum, motion: .forwardOnly, driver: configuration.driver.rawValue)
        let panel = DirectDrivePanel(info: info, engine: engine, clock: ContinuousClock(), origin: origin)
        await panel.start()
        var driver = PanelDriver(panel: panel, configuration: settled, snapshots: nil, stepper: engine.profile,
                                 commandInterval: nil, stopCompanion: { thread.stop() })
        driver.resumes = false
        driver.engine = engine
        driver.library = library
        return driver
    }

    /// The board's shape for `modules` modules: the configured size (which must fit), else the
    /// rows or columns given, else one row.
    static func size(for modules: Int, _ configuration: PanelSettings) throws -> BoardSize {
        if let size = configuration.size {
            guard modules >= size.count else {
                throw ServiceError(.configuration, "panel \(configuration.id): the controller has \(modules) modules, too few for a \(size) board")
            }
            return size
        }
        if let rows = configuration.rows {
            guard modules % rows == 0 else { throw ServiceError(.configuration, "panel \(configuration.id): \(modules) modules do not make \(rows) equal rows") }
            return BoardSize(rows: rows, columns: modules / rows)
        }
        if let columns = configuration.columns {
            guard modules % columns == 0 else { throw ServiceError(.configuration, "panel \(configuration.id): \(modules) modules do not make rows of \(columns)") }
            return BoardSize(rows: modules / columns, columns: columns)
        }
        return BoardSize(rows: 1, columns: modules)
    }
}

/// A pixel panel's display as a surface to draw whole frames on.
struct PixelSurface: Sendable {
    let width: Int
    let height: Int
    let monochrome: Bool
    let framesPerSecond: Int
    let present: @Sendable (PixelFrame) async throws -> Void
}

import FlapCore
import FlapHardware
import FlapLinux
import FlapSimulated
import FlapTime
import FoundationEssentials
import Logging

extension PanelDriver {
    /// An LED matrix, strip or screen: the display from configuration (its simulated twin for
    /// `device = "simulated"`), the board the largest that fits unless a size is given.
    static func led(_ configuration: PanelSettings, saved: [CharacterCode]?, logger: Logger) async throws -> PanelDriver {
        let settings = configuration.led
        let simulated = configuration.device == "simulated"
        var stopCompanion: @Sendable () async -> Void = {}
        var twin: (any SimulatedPixelDevice)?
        let display: any PixelDisplay
        var style = RenderStyle.led
        switch configuration.driver {
        case .max7219:
            let cascade = try MAX7219Cascade(width: settings.width ?? 32, height: settings.height ?? 8,
                                             blockOrientation: settings.orientation, reverseBlocks: settings.reverseBlocks)
            let chain = simulated ? SimulatedMAX7219Chain(width: cascade.width, height: cascade.height) : nil
            twin = chain
            let spi: any SPIDevice = try chain ?? LinuxSPIDevice(path: configuration.device ?? "/dev/spidev0.0", speedHz: 8_000_000)
            display = MAX7219Display(spi: spi, cascade: cascade)
        case .ws2812:
            let strip = try WS2812Strip(width: settings.width ?? 32, height: settings.height ?? 8,
                                        wiring: settings.wiring)
            let leds = simulated ? SimulatedWS2812Strip(count: strip.width * strip.height, width: strip.width, wiring: strip.wiring) : nil
            twin = leds
            let spi: any SPIDevice = try leds ?? LinuxSPIDevice(path: configuration.device ?? "/dev/spidev0.0", speedHz: WS2812Strip.spiHz)
            display = WS2812Display(spi: spi, strip: strip, currentLimit: settings.currentLimitMilliamps.map(Double.init))
        case .framebuffer:
            style = .screen
            let layout = settings.format
            let configured = try layout.map { try FramebufferFormat(width: settings.width ?? 640, height: settings.height ?? 360, layout: $0) }
            let screen = simulated
                ? SimulatedFramebuffer(format: try configured ?? FramebufferFormat(width: settings.width ?? 320, height: settings.height ?? 120, layout: .xrgb8888))
                : nil
            twin = screen
            let memory: any FramebufferMemory = try screen ?? LinuxFramebuffer(path: configuration.device ?? "/dev/fb0", configured: configured)
            display = FramebufferDisplay(memory: memory)
        default:
            let matrix = simulated ? SimulatedRGBMatrix() : nil
            twin = matrix
            let hub75 = try HUB75Display(api: try matrix ?? LibRGBMatrix(), options: settings.matrix)
            stopCompanion = { await hub75.close() }
            display = hub75
        }
        guard let fitting = BoardRenderer.largestBoard(width: display.width, height: display.height) else {
            throw ServiceError(.configuration, "panel \(configuration.id): \(display.width)×\(display.height) pixels cannot show even one 5×7 module")
        }
        let size = configuration.size ?? (style == .screen ? .flagship : fitting)
        let renderer: BoardRenderer
        do { renderer = try BoardRenderer(size: size, width: display.width, height: display.height, style: style) } catch {
            throw ServiceError(.unavailable, "panel \(configuration.id): \(error.description)")
        }
        var settled = configuration
        settled.size = size
        let positions = saved.flatMap { $0.count == size.count ? $0.map { configuration.drum.flap(for: $0).index } : nil }
        let info = PanelInfo(id: configuration.id, size: size, drum: configuration.drum, motion: .shortestWay, driver: configuration.driver.rawValue)
        let panel = PixelPanel(info: info, display: display, renderer: renderer, clock: ContinuousClock(),
                               framesPerSecond: settings.framesPerSecond, schedule: settings.brightnessSchedule,
                               blankAfter: settings.blankAfterSeconds.map { .seconds($0) }, minuteOfDay: localMinuteOfDay, positions: positions)
        await panel.start()
        logger.info("\(display.name): \(display.width)×\(display.height) pixels, a \(size) board in \(renderer.geometry.fontName) glyphs")
        var driver = PanelDriver(panel: panel, configuration: settled, snapshots: nil, stepper: nil, commandInterval: nil, stopCompanion: stopCompanion)
        driver.ledDevice = twin
        let surface = panel.surface
        driver.pixels = PixelSurface(width: surface.width, height: surface.height, monochrome: surface.monochrome,
                                     framesPerSecond: settings.framesPerSecond) { try await panel.present($0) }
        return driver
    }

    /// Minutes after local midnight, for the brightness schedule.
    @Sendable static func localMinuteOfDay() -> Int {
        // Read each time, so a time zone changed while flapd runs is followed.
        ZoneRules.current().minuteOfDay(at: Date())
    }
}

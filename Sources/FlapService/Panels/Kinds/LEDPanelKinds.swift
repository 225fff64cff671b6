import FlapCore
import FlapHardware
import FlapLinux
import FlapPrimitives
import FlapSimulated
import FlapTime
import FoundationEssentials
import Logging

/// The LED matrices and screens: each kind makes its display from its own keys, and
/// ``LEDPanels`` shows the board on it in light (``PixelPanel``), the largest board that fits
/// unless a size is given, its simulated twin drawn in the terminal for `device = "simulated"`.
struct MAX7219PanelKind: PanelKind {
    var name: String { "max7219" }
    var usage: String { "=DEVICE (spidev)" }
    var drawsInLight: Bool { true }

    func read(_ reader: inout TableReader, into panel: inout PanelSettings) {
        panel.device = reader.string("device")
        var led = LEDPanels.readPixels(&reader)
        if let w = led.width ?? 32 as Int?, let h = led.height ?? 8 as Int?, w % 8 != 0 || h % 8 != 0 {
            reader.fail(led.width.map { _ in "width" } ?? "height", "a MAX7219 cascade is whole 8×8 blocks: \(w)×\(h) is not")
        }
        if let orientation = reader.int("orientation") {
            if [0, 90, -90, 180].contains(orientation) {
                led.orientation = orientation
            } else {
                reader.fail("orientation", .outOfRange(given: "\(orientation)", allowed: "0, 90, -90 or 180"))
            }
        }
        led.reverseBlocks = reader.bool("reverse_blocks") ?? led.reverseBlocks
        LEDPanels.readLight(&reader, into: &led)
        panel.options = led
    }

    func make(_ panel: PanelSettings, with context: PanelContext) async throws -> PanelDriver {
        let settings = panel.options(LEDSettings.self) ?? LEDSettings()
        let cascade = try MAX7219Cascade(
            width: settings.width ?? 32, height: settings.height ?? 8,
            blockOrientation: settings.orientation, reverseBlocks: settings.reverseBlocks)
        let chain = panel.device == "simulated" ? SimulatedMAX7219Chain(width: cascade.width, height: cascade.height) : nil
        let spi: any SPIDevice = try chain ?? LinuxSPIDevice(path: panel.device ?? "/dev/spidev0.0", speedHz: 8_000_000)
        return try await LEDPanels.make(panel, display: MAX7219Display(spi: spi, cascade: cascade), twin: chain, context)
    }
}

struct WS2812PanelKind: PanelKind {
    var name: String { "ws2812" }
    var usage: String { "=DEVICE (spidev)" }
    var drawsInLight: Bool { true }

    func read(_ reader: inout TableReader, into panel: inout PanelSettings) {
        panel.device = reader.string("device")
        var led = LEDPanels.readPixels(&reader)
        led.wiring = reader.choice("wiring") ?? led.wiring
        if let limit = reader.int("current_limit_ma") {
            if limit >= 100 {
                led.currentLimitMilliamps = limit
            } else {
                reader.fail("current_limit_ma", .outOfRange(given: "\(limit)", allowed: "at least 100 mA"))
            }
        }
        LEDPanels.readLight(&reader, into: &led)
        panel.options = led
    }

    func make(_ panel: PanelSettings, with context: PanelContext) async throws -> PanelDriver {
        let settings = panel.options(LEDSettings.self) ?? LEDSettings()
        let strip = try WS2812Strip(width: settings.width ?? 32, height: settings.height ?? 8, wiring: settings.wiring)
        let leds =
            panel.device == "simulated" ? SimulatedWS2812Strip(count: strip.width * strip.height, width: strip.width, wiring: strip.wiring) : nil
        let spi: any SPIDevice = try leds ?? LinuxSPIDevice(path: panel.device ?? "/dev/spidev0.0", speedHz: WS2812Strip.spiHz)
        let display = WS2812Display(spi: spi, strip: strip, currentLimit: settings.currentLimitMilliamps.map(Double.init))
        return try await LEDPanels.make(panel, display: display, twin: leds, context)
    }
}

struct FramebufferPanelKind: PanelKind {
    var name: String { "framebuffer" }
    var usage: String { "=/dev/fb0" }
    var drawsInLight: Bool { true }

    func read(_ reader: inout TableReader, into panel: inout PanelSettings) {
        panel.device = reader.string("device")
        var led = LEDPanels.readPixels(&reader)
        led.format = reader.choice("format")
        LEDPanels.readLight(&reader, into: &led)
        panel.options = led
    }

    func make(_ panel: PanelSettings, with context: PanelContext) async throws -> PanelDriver {
        let settings = panel.options(LEDSettings.self) ?? LEDSettings()
        let configured = try settings.format.map { try FramebufferFormat(width: settings.width ?? 640, height: settings.height ?? 360, layout: $0) }
        let screen =
            panel.device == "simulated"
            ? SimulatedFramebuffer(
                format: try configured ?? FramebufferFormat(width: settings.width ?? 320, height: settings.height ?? 120, layout: .xrgb8888))
            : nil
        let memory: any FramebufferMemory = try screen ?? LinuxFramebuffer(path: panel.device ?? "/dev/fb0", configured: configured)
        return try await LEDPanels.make(panel, display: FramebufferDisplay(memory: memory), twin: screen, style: .screen, context)
    }
}

struct HUB75PanelKind: PanelKind {
    var name: String { "hub75" }
    var usage: String { " (through rpi-rgb-led-matrix)" }
    var drawsInLight: Bool { true }

    func read(_ reader: inout TableReader, into panel: inout PanelSettings) {
        panel.device = reader.string("device")
        var led = LEDPanels.readPixels(&reader)
        // A HUB75 panel's width and height are one matrix's; the library lays out the chain.
        if let rows = led.height { led.matrix.rows = rows }
        if let columns = led.width { led.matrix.columns = columns }
        led.width = nil
        led.height = nil
        if let chain = reader.int("chain") {
            if chain >= 1 { led.matrix.chain = chain } else { reader.fail("chain", .outOfRange(given: nil, allowed: "at least 1")) }
        }
        if let parallel = reader.int("parallel") {
            if (1...3).contains(parallel) {
                led.matrix.parallel = parallel
            } else {
                reader.fail("parallel", .outOfRange(given: "\(parallel)", allowed: "1, 2 or 3"))
            }
        }
        led.matrix.hardwareMapping = reader.string("hardware_mapping") ?? led.matrix.hardwareMapping
        if let slowdown = reader.int("gpio_slowdown") {
            if (0...4).contains(slowdown) {
                led.matrix.gpioSlowdown = slowdown
            } else {
                reader.fail("gpio_slowdown", .outOfRange(given: "\(slowdown)", allowed: "0 to 4"))
            }
        }
        if let bits = reader.int("pwm_bits") {
            if (1...11).contains(bits) {
                led.matrix.pwmBits = bits
            } else {
                reader.fail("pwm_bits", .outOfRange(given: "\(bits)", allowed: "1 to 11"))
            }
        }
        LEDPanels.readLight(&reader, into: &led)
        panel.options = led
    }

    func make(_ panel: PanelSettings, with context: PanelContext) async throws -> PanelDriver {
        let settings = panel.options(LEDSettings.self) ?? LEDSettings()
        let matrix = panel.device == "simulated" ? SimulatedRGBMatrix() : nil
        let hub75 = try HUB75Display(api: try matrix ?? LibRGBMatrix(), options: settings.matrix)
        return try await LEDPanels.make(panel, display: hub75, twin: matrix, stopCompanion: { await hub75.close() }, context)
    }
}

/// What the LED kinds share: the keys every one reads, and the panel that shows boards in light.
enum LEDPanels {
    /// `width` and `height`, in pixels.
    static func readPixels(_ reader: inout TableReader) -> LEDSettings {
        var led = LEDSettings()
        for key in ["width", "height"] {
            guard let value = reader.int(key) else { continue }
            if value < 1 { reader.fail(key, .outOfRange(given: "\(value)", allowed: "at least 1 pixel")) }
            if key == "width" { led.width = value } else { led.height = value }
        }
        return led
    }

    /// How it is lit: `brightness`, `brightness_schedule`, `blank_after_seconds`, `fps`.
    static func readLight(_ reader: inout TableReader, into led: inout LEDSettings) {
        if let brightness = reader.int("brightness") {
            if (0...100).contains(brightness) {
                led.brightness = brightness
            } else {
                reader.fail("brightness", .outOfRange(given: "\(brightness)", allowed: "0 to 100 (percent)"))
            }
        }
        led.matrix.brightness = max(1, led.brightness)
        if let entries = reader.strings("brightness_schedule") {
            var changes: [BrightnessSchedule.Change] = []
            for entry in entries {
                let parts = entry.split(separator: "=")
                guard parts.count == 2, let minute = BrightnessSchedule.minute(of: String(parts[0])), let percent = Int(parts[1]),
                    (0...100).contains(percent)
                else {
                    reader.fail("brightness_schedule", .notInForm(String(entry), form: "\"HH:MM=PERCENT\" such as \"22:00=10\""))
                    continue
                }
                changes.append(.init(minute: minute, level: Double(percent) / 100))
            }
            do { _ = try BrightnessSchedule(changes); led.schedule = changes } catch { reader.fail("brightness_schedule", error.description) }
        }
        if let seconds = reader.int("blank_after_seconds") {
            if seconds >= 1 {
                led.blankAfterSeconds = seconds
            } else {
                reader.fail("blank_after_seconds", .outOfRange(given: "\(seconds)", allowed: "at least 1"))
            }
        }
        if let fps = reader.int("fps") {
            if (1...60).contains(fps) {
                led.framesPerSecond = fps
            } else {
                reader.fail("fps", .outOfRange(given: "\(fps)", allowed: "1 to 60 frames a second"))
            }
        }
    }

    /// The panel on `display`, `twin` (the simulated device behind it) drawn in the terminal.
    static func make(
        _ panel: PanelSettings, display: any PixelDisplay, twin: (any SimulatedPixelDevice)?, style: RenderStyle = .led,
        stopCompanion: @escaping @Sendable () async -> Void = {}, _ context: PanelContext
    ) async throws -> PanelDriver {
        let settings = panel.options(LEDSettings.self) ?? LEDSettings()
        guard let fitting = BoardRenderer.largestBoard(width: display.width, height: display.height) else {
            throw ServiceError.tooFewPixels(panel: panel.id, width: display.width, height: display.height)
        }
        let size = panel.size ?? (style == .screen ? .flagship : fitting)
        let renderer: BoardRenderer
        do { renderer = try BoardRenderer(size: size, width: display.width, height: display.height, style: style) } catch {
            throw ServiceError.panelUnavailable(panel: panel.id, reason: error.description)
        }
        let (settled, info, positions) = panel.settled(size: size, motion: .shortestWay, saved: context.saved)
        let pixelPanel = PixelPanel(
            info: info, display: display, renderer: renderer, clock: context.time.clock,
            framesPerSecond: settings.framesPerSecond, schedule: settings.brightnessSchedule,
            blankAfter: settings.blankAfterSeconds.map { .seconds($0) }, minuteOfDay: localMinuteOfDay(context.time.now), positions: positions)
        await pixelPanel.start()
        context.logger.info("\(display.name): \(display.width)×\(display.height) pixels, a \(size) board in \(renderer.geometry.fontName) glyphs")
        var driver = PanelDriver(
            panel: pixelPanel, configuration: settled, snapshots: nil, stopCompanion: stopCompanion)
        driver.ledDevice = twin
        return driver
    }

    /// Minutes after local midnight by `now`, for the brightness schedule.
    static func localMinuteOfDay(_ now: @escaping @Sendable () -> Date) -> @Sendable () -> Int {
        // The zone is read each time, so a time zone changed while flapd runs is followed.
        { ZoneRules.current().minuteOfDay(at: now()) }
    }
}

/// The settings of an LED or screen panel (`max7219`, `ws2812`, `framebuffer`, `hub75`).
public struct LEDSettings: PanelOptions, Equatable {
    /// Pixels across and down; nil: the driver's default (32×8 for MAX7219 and WS2812; the
    /// screen's own for a framebuffer; rows × chain… for HUB75).
    public var width: Int?
    /// Pixels down (with ``width``).
    public var height: Int?
    /// MAX7219: luma's block_orientation (0, 90, -90, 180) and blocks_arranged_in_reverse_order.
    public var orientation = 0
    /// MAX7219: blocks arranged in reverse order.
    public var reverseBlocks = false
    /// WS2812: how the strip runs along the rows, and the supply's limit in milliamps.
    public var wiring = WS2812Strip.Wiring.serpentine
    /// WS2812: the supply's limit in milliamps.
    public var currentLimitMilliamps: Int?
    /// Framebuffer: `rgb565`, `rgb888` or `xrgb8888`, for a file or a device without screen info.
    public var format: FramebufferFormat.Layout?
    /// HUB75 (rpi-rgb-led-matrix's options).
    public var matrix = RGBMatrixOptions()
    /// Percent, all day; or the schedule (`"22:00=10"`: 10 % from 22:00).
    public var brightness = 100
    /// The brightness schedule (with ``brightness``).
    public var schedule: [BrightnessSchedule.Change] = []
    /// Dark after this long without a new board; nil: never.
    public var blankAfterSeconds: Int?
    /// Frames a second drawn while it moves.
    public var framesPerSecond = 60

    /// The defaults.
    public init() {}

    /// The brightness through the day: the schedule, else ``brightness`` all day.
    public var brightnessSchedule: BrightnessSchedule {
        (try? BrightnessSchedule(schedule)) ?? BrightnessSchedule(level: Double(brightness) / 100)
    }
}

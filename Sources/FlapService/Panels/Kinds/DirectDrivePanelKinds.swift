import FlapCore
import FlapHardware
import FlapLinux
import FlapPrimitives
import FlapSimulated
import Logging

/// `driver = "spi"`: modules stepped by flapd itself through Chainlink Driver boards (shift
/// registers) on the Pi's SPI bus. A chain cannot count its modules, so the size is needed.
struct SPIPanelKind: PanelKind {
    var name: String { "spi" }
    var usage: String { "=DEVICE (spidev, such as /dev/spidev0.0)" }
    var defaultDrum: Drum { .chainlink52 }

    func read(_ reader: inout TableReader, into panel: inout PanelSettings) {
        panel.device = reader.string("device")
        if panel.size == nil {
            reader.fail("size", .needs("an spi panel", "its size (size, or rows and columns): a shift-register chain cannot count its modules"))
        }
    }

    func make(_ panel: PanelSettings, with context: PanelContext) async throws -> PanelDriver {
        let size = panel.size ?? .flagship
        let device = panel.device ?? "/dev/spidev0.0"
        let io: any StepperIO =
            device == "simulated"
            ? ShiftRegisterChain(spi: SimulatedShiftRegisterChain(modules: size.count), modules: size.count)
            : ShiftRegisterChain(spi: try LinuxSPIDevice(path: device), modules: size.count)
        return await DirectDrive.make(panel, size: size, io: io, device: device, boards: "Chainlink Driver boards on SPI", library: nil, context)
    }
}

/// `driver = "gpio"`: modules stepped by flapd itself through ULN2003 boards on GPIO lines,
/// each module's five lines in `pins`.
struct GPIOPanelKind: PanelKind {
    var name: String { "gpio" }
    var usage: String { "=CHIP (such as gpiochip0)" }
    var defaultDrum: Drum { .chainlink52 }

    /// Each module's lines, IN1–IN4 of its ULN2003 board then its hall sensor (offsets on the
    /// chip), row-major.
    struct Pins: PanelOptions, Equatable {
        var modules: [[Int]] = []
    }

    func read(_ reader: inout TableReader, into panel: inout PanelSettings) {
        panel.device = reader.string("device")
        var pins = Pins()
        if let lists = reader.intLists("pins", example: "[[17, 18, 27, 22, 23]] (IN1–IN4, then the sensor)") {
            if let bad = lists.firstIndex(where: { $0.count != 5 }) {
                reader.fail("pins", "module \(bad + 1) has \(lists[bad].count) pins; each needs five: IN1–IN4 of its ULN2003, then its hall sensor")
            }
            pins.modules = lists
        }
        if pins.modules.isEmpty, panel.device != "simulated" {
            reader.fail("pins", .needs("a gpio panel", "pins: [[IN1, IN2, IN3, IN4, sensor], …] for each module"))
        } else if panel.size == nil, pins.modules.isEmpty {
            reader.fail("size", .needs("a simulated gpio panel", "its size"))
        } else if let size = panel.size, !pins.modules.isEmpty, size.count != pins.modules.count {
            reader.fail("pins", "\(pins.modules.count) modules' pins for a board of \(size.count) modules")
        }
        panel.options = pins
    }

    func make(_ panel: PanelSettings, with context: PanelContext) async throws -> PanelDriver {
        let pins = panel.options(Pins.self)?.modules ?? []
        let size = panel.size ?? BoardSize(rows: 1, columns: pins.count)
        let device = panel.device ?? "gpiochip0"
        if device == "simulated" {
            let io = CoilLines(lines: SimulatedCoilBoard(modules: size.count), modules: size.count)
            return await DirectDrive.make(panel, size: size, io: io, device: device, boards: "ULN2003 boards on GPIO", library: nil, context)
        }
        let lines = try LinuxGPIOLines(chip: device, outputs: pins.flatMap { $0.prefix(4) }, inputs: pins.map { $0[4] })
        return await DirectDrive.make(
            panel, size: size, io: CoilLines(lines: lines, modules: size.count), device: device,
            boards: "ULN2003 boards on GPIO", library: lines.library.description, context)
    }
}

/// What the two kinds of directly driven panel share: the stepping engine on its real-time thread.
enum DirectDrive {
    static func make(
        _ panel: PanelSettings, size: BoardSize, io: any StepperIO, device: String, boards: String, library: String?,
        _ context: PanelContext
    ) async -> PanelDriver {
        let engine = SteppingEngine(io: io, flaps: panel.drum.count, offsets: context.calibration.offsets(panel: panel.id))
        let origin = ContinuousClock.now
        let thread = RealtimeSteppingThread(engine: engine, origin: origin)
        if let refusal = thread.start() { context.logger.warning("\(device): \(refusal)") }
        context.logger.info("\(device): stepping \(size.count) modules (\(boards)\(library.map { " through \($0)" } ?? ""))")
        // A directly driven board homes to blank at start: no saved positions.
        let (settled, info, _) = panel.settled(size: size, saved: nil)
        let directPanel = DirectDrivePanel(info: info, engine: engine, clock: ContinuousClock(), origin: origin, library: library)
        await directPanel.start()
        return PanelDriver(panel: directPanel, configuration: settled, snapshots: nil, stopCompanion: { thread.stop() })
    }
}

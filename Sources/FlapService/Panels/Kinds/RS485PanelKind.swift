import FlapCore
import FlapHardware
import FlapLinux
import FlapPrimitives
import FlapSimulated
import Logging

/// `driver = "rs485"`: a wall of RS-485 split-flap modules (Adam G Makes' open design) on a USB
/// RS-485 dongle, one module a cell; `device = "simulated"` puts a simulated bus of modules on a
/// real pseudo-terminal.
struct RS485PanelKind: PanelKind {
    var name: String { "rs485" }
    var usage: String { "=DEVICE (a USB RS-485 dongle such as /dev/ttyUSB0)" }
    var defaultDrum: Drum { RS485Reel.firmware.drum }
    var simulatedUnderSimulate: Bool { true }

    /// The modules' IDs, their reel and their revolution.
    struct Modules: PanelOptions, Equatable {
        /// Row-major; nil: 1, 2, 3… row by row.
        var ids: [[Int]]?
        var reel = RS485Reel.firmware
        var stepsPerRevolution = RS485Reel.defaultStepsPerRevolution
        /// Every module's firmware; nil: each module is asked when it matters.
        var firmware: RS485Firmware?
    }

    static let defaultDevice = "/dev/ttyUSB0"

    func read(_ reader: inout TableReader, into panel: inout PanelSettings) {
        panel.device = reader.string("device")
        var modules = Modules()
        if let text = reader.string("reel") {
            do { modules.reel = try RS485Reel(text) } catch { reader.fail("reel", error.description) }
        }
        if let steps = reader.int("steps_per_revolution") {
            if (64...65_535).contains(steps) {
                modules.stepsPerRevolution = steps
            } else {
                reader.fail("steps_per_revolution", .outOfRange(given: "\(steps)", allowed: "64 to 65535 half-steps (a 28BYJ-48 takes 4096)"))
            }
        }
        if let text = reader.string("firmware") {
            if let firmware = RS485Firmware(rawValue: text) {
                modules.firmware = firmware
            } else {
                reader.fail("firmware", .notOneOf(text, choices: RS485Firmware.allCases.map(\.rawValue)))
            }
        }
        if let ids = reader.intLists("ids", example: "[[1, 2, 3], [4, 5, 6]] (one list a row)") {
            let flat = ids.flatMap { $0 }
            if let bad = flat.first(where: { !(1...999).contains($0) }) {
                reader.fail("ids", "module ID \(bad) is not 1 to 999")
            } else if let twice = flat.first(where: { id in flat.filter { $0 == id }.count > 1 }) {
                reader.fail("ids", .givenTwice("module ID \(twice)"))
            } else if let size = panel.size, ids.count != size.rows || ids.contains(where: { $0.count != size.columns }) {
                reader.fail("ids", "\(ids.count) rows of IDs for a board of \(size.rows)×\(size.columns); give one list of \(size.columns) a row")
            }
            modules.ids = ids
        }
        // Its flaps are its reel's: a drum given too would be read and then overridden.
        for key in ["drum", "drum_string"] where reader[key] != nil {
            reader.fail(key, .elsewhere("an rs485 panel's flaps are its reel's: give reel (one character a flap), not \(key)"))
        }
        if panel.size == nil { reader.fail("size", .needs("an rs485 panel", "its size, such as size = \"3x15\" (its modules are not counted)")) }
        panel.drum = modules.reel.drum
        panel.options = modules
    }

    func make(_ panel: PanelSettings, with context: PanelContext) async throws -> PanelDriver {
        let modules = panel.options(Modules.self) ?? Modules()
        // `--panel rs485` alone: the rows and columns given, else a row of eight.
        let size = panel.size ?? BoardSize(rows: panel.rows ?? 1, columns: panel.columns ?? 8)
        let ids = modules.ids?.flatMap { $0 } ?? Array(1...size.count)
        let clock = ContinuousClock()
        var device = panel.device ?? Self.defaultDevice
        var stopCompanion: @Sendable () async -> Void = {}
        if device == "simulated" {
            let (port, path) = try LinuxSerialPort.pseudoTerminal(settings: .rs485)
            // Universal Firmware's modules when the configuration says so, each with a serial number.
            let serials = modules.firmware == .universal ? ids.map(SimulatedRS485Module.serial(made:)) : nil
            let bus = SimulatedRS485Bus(
                port: port, clock: clock, ids: ids, reel: modules.reel.bytes, stepsPerRevolution: modules.stepsPerRevolution, serials: serials)
            let running = Task { await bus.run() }
            stopCompanion = {
                running.cancel()
                await running.value
                await port.close()
            }
            context.logger.info("a simulated bus of \(ids.count) RS-485 modules on \(path)")
            device = path
        }
        let path = device
        let bus = RS485Bus(device: path, clock: clock) { try LinuxSerialPort(path: path, settings: .rs485) }
        let info = PanelInfo(id: panel.id, size: size, drum: modules.reel.drum, motion: .forwardOnly, driver: name)
        let rs485 = RS485Panel(
            info: info, bus: bus, clock: clock, ids: ids, reel: modules.reel, stepsPerRevolution: modules.stepsPerRevolution,
            firmware: modules.firmware)
        await rs485.start()
        var settled = panel
        settled.size = size
        settled.drum = modules.reel.drum
        return PanelDriver(panel: rs485, configuration: settled, snapshots: nil, stopCompanion: stopCompanion)
    }
}

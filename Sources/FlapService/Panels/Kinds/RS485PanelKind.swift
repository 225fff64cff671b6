import FlapCore
import FlapHardware
import FlapLinux
import FlapPrimitives
import FlapSettings
import FlapSimulated
import FlapTOML
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
        /// Modules whose reel is not the wall's, by ID (Universal Firmware is told it with `N`).
        var ownReels: [Int: RS485Reel] = [:]
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
        modules.ownReels = Self.ownReels(&reader, ids: modules.ids?.flatMap { $0 } ?? panel.size.map { Array(1...$0.count) })
        // Its flaps are its reel's: a drum given too would be read and then overridden.
        for key in ["drum", "drum_string"] where reader[key] != nil {
            reader.fail(key, .elsewhere("an rs485 panel's flaps are its reel's: give reel (one character a flap), not \(key)"))
        }
        if panel.size == nil { reader.fail("size", .needs("an rs485 panel", "its size, such as size = \"3x15\" (its modules are not counted)")) }
        panel.drum = modules.reel.drum
        panel.moduleDrums = Self.moduleDrums(modules, ids: modules.ids?.flatMap { $0 } ?? panel.size.map { Array(1...$0.count) })
        panel.options = modules
    }

    /// `module_reels = { 7 = " 0123456789" }`: a reel of its own for each module named by ID, one
    /// of the wall's, of at most 64 flaps (what Universal Firmware's `N` takes).
    static func ownReels(_ reader: inout TableReader, ids: [Int]?) -> [Int: RS485Reel] {
        reader.declare("module_reels", .table)
        guard var table = reader.table("module_reels") else { return [:] }
        var reels: [Int: RS485Reel] = [:]
        for key in table.table.keys.sorted() {
            guard let text = table.string(key) else { continue }
            guard let id = Int(key), ids?.contains(id) ?? (1...999).contains(id) else {
                table.fail(key, "\(key.debugDescription) is not the ID of one of this wall's modules")
                continue
            }
            do throws(DrumError) {
                let reel = try RS485Reel(text)
                guard reel.bytes.count <= 64 else { throw DrumError("a module's own reel has at most 64 flaps, not \(reel.bytes.count)") }
                reels[id] = reel
            } catch {
                table.fail(key, error.description)
            }
        }
        reader.problems += table.problems
        return reels
    }

    /// Each module's drum, row-major, where one has a reel of its own; nil when none has.
    static func moduleDrums(_ modules: Modules, ids: [Int]?) -> [Drum]? {
        guard !modules.ownReels.isEmpty, let ids else { return nil }
        return ids.map { (modules.ownReels[$0] ?? modules.reel).drum }
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
            firmware: modules.firmware, ownReels: modules.ownReels)
        await rs485.start()
        var settled = panel
        settled.size = size
        settled.drum = modules.reel.drum
        settled.moduleDrums = Self.moduleDrums(modules, ids: ids)
        return PanelDriver(panel: rs485, configuration: settled, snapshots: nil, stopCompanion: stopCompanion)
    }
}

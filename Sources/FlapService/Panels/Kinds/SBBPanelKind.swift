import FlapCore
import FlapHardware
import FlapLinux
import FlapPrimitives
import FlapSettings
import FlapSimulated
import FlapTOML
import Logging

/// `driver = "sbb"`: a wall of SBB/annax station modules on a USB RS-485 adapter (19200 baud,
/// each frame after a BREAK), one module a cell by its address; `device = "simulated"` puts a
/// simulated bus of modules behind it.
struct SBBPanelKind: PanelKind {
    var name: String { "sbb" }
    var usage: String { "=DEVICE (a USB RS-485 adapter such as /dev/ttyUSB0)" }

    /// The modules' addresses, their blades and how fast they turn.
    struct Modules: PanelOptions, Equatable {
        /// Row-major; nil: 1, 2, 3… row by row.
        var addresses: [[Int]]?
        var blades: SBBBlades?
        var bladeTime = SBBBlades.defaultBladeTime
        /// Modules whose type carries other blades than the wall's, by address.
        var ownBlades: [Int: SBBBlades] = [:]
    }

    static let defaultDevice = "/dev/ttyUSB0"

    func read(_ reader: inout TableReader, into panel: inout PanelSettings) {
        panel.device = reader.string("device")
        var modules = Modules()
        if let text = reader.string("blades") {
            do { modules.blades = try SBBBlades(text) } catch { reader.fail("blades", error.description) }
        } else {
            reader.fail(
                "blades",
                .needs(
                    "an sbb panel",
                    "its modules' blades in order, one character a blade and * for one that shows none, such as blades = \" ABC*0123\""))
        }
        if let labels = reader.strings("labels") {
            if let blades = modules.blades {
                do { modules.blades = try blades.labelled(labels) } catch { reader.fail("labels", error.description) }
            }
        }
        if let milliseconds = reader.int("blade_time_ms") {
            if (20...2000).contains(milliseconds) {
                modules.bladeTime = .milliseconds(milliseconds)
            } else {
                reader.fail("blade_time_ms", .outOfRange(given: "\(milliseconds)", allowed: "20 to 2000 milliseconds a blade"))
            }
        }
        if let addresses = reader.intLists("addresses", example: "[[10, 11, 12], [13, 14, 15]] (one list a row)") {
            let flat = addresses.flatMap { $0 }
            if let bad = flat.first(where: { !(0...255).contains($0) }) {
                reader.fail("addresses", "address \(bad) is not 0 to 255")
            } else if let twice = flat.first(where: { address in flat.filter { $0 == address }.count > 1 }) {
                reader.fail("addresses", .givenTwice("address \(twice)"))
            } else if let size = panel.size, addresses.count != size.rows || addresses.contains(where: { $0.count != size.columns }) {
                reader.fail(
                    "addresses",
                    "\(addresses.count) rows of addresses for a board of \(size.rows)×\(size.columns); give one list of \(size.columns) a row")
            }
            modules.addresses = addresses
        }
        let addresses = modules.addresses?.flatMap { $0 } ?? panel.size.map { Array(1...$0.count) }
        modules.ownBlades = Self.ownBlades(&reader, addresses: addresses)
        for key in ["drum", "drum_string"] where reader[key] != nil {
            reader.fail(key, .elsewhere("an sbb panel's flaps are its blades: give blades (one character a blade), not \(key)"))
        }
        if panel.size == nil { reader.fail("size", .needs("an sbb panel", "its size, such as size = \"1x4\" (its modules are not counted)")) }
        if let blades = modules.blades {
            panel.drum = blades.drum
            panel.moduleDrums = Self.moduleDrums(modules, wall: blades, addresses: addresses)
        }
        panel.options = modules
    }

    /// `module_blades = { 12 = "…", 13 = { blades = "…", labels = […] } }`: the blades of each
    /// module named by address whose type carries others than the wall's (an hour or minute
    /// module beside destinations), with their labels.
    static func ownBlades(_ reader: inout TableReader, addresses: [Int]?) -> [Int: SBBBlades] {
        reader.declare("module_blades", .table)
        guard var table = reader.table("module_blades") else { return [:] }
        var own: [Int: SBBBlades] = [:]
        for key in table.table.keys.sorted() {
            guard let address = Int(key), addresses?.contains(address) ?? (0...255).contains(address) else {
                table.fail(key, "\(key.debugDescription) is not the address of one of this wall's modules")
                continue
            }
            var blades: SBBBlades?
            if table[key]?.string != nil, let text = table.string(key) {
                do { blades = try SBBBlades(text) } catch { table.fail(key, error.description) }
            } else if var module = table.table(key) {
                if let text = module.string("blades") {
                    do { blades = try SBBBlades(text) } catch { module.fail("blades", error.description) }
                } else {
                    module.fail("blades", .needs("a module's own blades", "blades = \" ABC*0123\" (one character a blade)"))
                }
                if let labels = module.strings("labels"), let given = blades {
                    do { blades = try given.labelled(labels) } catch { module.fail("labels", error.description) }
                }
                table.problems += module.problems
            }
            own[address] = blades
        }
        reader.problems += table.problems
        return own
    }

    /// Each module's drum, row-major, where one has blades of its own; nil when none has.
    static func moduleDrums(_ modules: Modules, wall: SBBBlades, addresses: [Int]?) -> [Drum]? {
        guard !modules.ownBlades.isEmpty, let addresses else { return nil }
        return addresses.map { (modules.ownBlades[$0] ?? wall).drum }
    }

    func make(_ panel: PanelSettings, with context: PanelContext) async throws -> PanelDriver {
        let modules = panel.options(Modules.self) ?? Modules()
        let size = panel.size ?? BoardSize(rows: panel.rows ?? 1, columns: panel.columns ?? 4)
        let addresses = modules.addresses?.flatMap { $0 } ?? Array(1...size.count)
        // `--panel sbb` alone: letters and digits, blank first.
        let blades = try modules.blades ?? SBBBlades(" ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        let clock = ContinuousClock()
        let device = panel.device ?? Self.defaultDevice
        var stopCompanion: @Sendable () async -> Void = {}
        let open: @Sendable () throws -> any SerialPort
        if device == "simulated" {
            // The twin in flapd's own process: a BREAK does not cross a pseudo-terminal.
            let (host, twinEnd) = SimulatedSerialPort.pair(clock: clock, settings: SBBLine.settings, names: ("simulated", "bus"))
            let twin = SimulatedSBBBus(
                port: twinEnd, clock: clock,
                modules: addresses.enumerated().map { n, address in
                    SimulatedSBBModule(
                        address: address, serial: UInt32(43_500 + n), blades: (modules.ownBlades[address] ?? blades).count,
                        bladeTime: modules.bladeTime)
                })
            let running = Task { await twin.run() }
            stopCompanion = {
                running.cancel()
                await running.value
            }
            context.logger.info("a simulated bus of \(addresses.count) SBB modules")
            open = { host }
        } else {
            open = { try LinuxSerialPort(path: device, settings: SBBLine.settings) }
        }
        let bus = SBBBus(device: device, clock: clock, open: open)
        let info = PanelInfo(id: panel.id, size: size, drum: blades.drum, motion: .forwardOnly, driver: name)
        let sbb = SBBPanel(
            info: info, bus: bus, clock: clock, addresses: addresses, blades: blades, bladeTime: modules.bladeTime, ownBlades: modules.ownBlades)
        await sbb.start()
        var settled = panel
        settled.size = size
        settled.drum = blades.drum
        settled.moduleDrums = Self.moduleDrums(modules, wall: blades, addresses: addresses)
        return PanelDriver(panel: sbb, configuration: settled, snapshots: nil, stopCompanion: stopCompanion)
    }
}

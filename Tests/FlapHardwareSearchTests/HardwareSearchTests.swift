import FlapClocks
import FlapHardware
import FlapHardwareSearch
import FlapSimulated
import Foundation
import Synchronization
import TestSupport
import Testing

/// A search over a folder laid out as `/dev` is: stable names leading to devices, one port held
/// by another program (a process that has it open, one by its lock file), one this board's panel
/// drives, and the rest asked, each opened through the opener the appliance gives (here, the far
/// ends of simulated cables).
@Suite(.cleansUp, .timeLimit(.minutes(3))) struct HardwareSearchTests {
    struct Layout {
        let dev: String
        let locks: String

        init() throws {
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("search-\(UUID().uuidString)").path
            dev = root + "/dev"
            locks = root + "/lock"
            for folder in [dev + "/serial/by-id", locks] {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            }
            for device in ["ttyUSB0", "ttyUSB1", "ttyUSB2", "ttyUSB3", "ttyACM0", "ttyAMA0", "fb0", "spidev0.0", "gpiochip0", "gpiochip4", "tty1"] {
                _ = FileManager.default.createFile(atPath: dev + "/" + device, contents: nil)
            }
            try link("serial/by-id/usb-FTDI_RS485-if00-port0", to: "ttyUSB0")
            try link("serial/by-id/usb-Silicon_Labs_CP2102-if00-port0", to: "ttyUSB1")
            try link("serial/by-id/usb-Prolific-if00-port0", to: "ttyUSB2")
            try link("serial0", to: "ttyAMA0")
            teardown { try? FileManager.default.removeItem(atPath: root) }
        }

        func link(_ name: String, to device: String) throws {
            try FileManager.default.createSymbolicLink(atPath: dev + "/" + name, withDestinationPath: dev + "/" + device)
        }
    }

    @Test func portsAreListedByTheirLastingNamesAndHeldOnesAreLeftAlone() async throws {
        let layout = try Layout()
        // ttyUSB3 is held by a program that locked it the UUCP way; ttyACM0 by one that has it open.
        try "  \(getppid())\n".write(toFile: layout.locks + "/LCK..ttyUSB3", atomically: true, encoding: .utf8)
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/bin/sh")
        holder.arguments = ["-c", "exec sleep 30 < '\(layout.dev)/ttyACM0'"]
        try holder.run()
        teardown { holder.terminate() }
        let clock = EventClock.drivenByCaller()
        let search = HardwareSearch(
            devices: layout.dev, holders: PortHolders(locks: layout.locks), clock: clock, start: { clock.task($0) }
        ) { path, _ in
            Issue.record("\(path) opened by a listing")
            throw HardwareError(device: path, problem: "not to be opened")
        }
        _ = try await clock.standingAside {
            try await eventually { await search.listed().serialPorts.contains { $0.device.hasSuffix("ttyACM0") && $0.heldBy != nil } }
        }
        let listed = await search.listed(inUse: [layout.dev + "/serial0": "main"])
        #expect(
            listed.serialPorts.map(\.path)
                == [
                    "by-id/usb-FTDI_RS485-if00-port0", "by-id/usb-Prolific-if00-port0", "by-id/usb-Silicon_Labs_CP2102-if00-port0", "serial0",
                    "ttyACM0", "ttyUSB3"
                ].map { $0.hasPrefix("by-id") ? layout.dev + "/serial/" + $0 : layout.dev + "/" + $0 })
        let held = Dictionary(
            uniqueKeysWithValues: listed.serialPorts.map { ($0.device.split(separator: "/").last.map(String.init) ?? "", $0.heldBy) })
        #expect(held["ttyAMA0"] == "this board (main)", "named by its alias, found by its device")
        #expect(held["ttyACM0"]??.hasPrefix("sleep (") == true, "\(String(describing: held["ttyACM0"]))")
        #expect(held["ttyUSB3"]??.contains("by its lock file") == true)
        #expect(held["ttyUSB0"] == .some(nil))
        #expect(listed.local == LocalDevices(devices: layout.dev))
        #expect(listed.local.framebuffers == [layout.dev + "/fb0"] && listed.local.spi == [layout.dev + "/spidev0.0"])
        #expect(listed.local.gpioChips == [layout.dev + "/gpiochip0", layout.dev + "/gpiochip4"])
    }

    @Test func eachFreePortIsAskedAndSaysWhatItIs() async throws {
        let layout = try Layout()
        let clock = EventClock.drivenByCaller()
        let (wallHost, wallDevice) = SimulatedSerialPort.pair(clock: clock, settings: .rs485)
        let (boardHost, boardDevice) = SimulatedSerialPort.pair(clock: clock, settings: .chainlink)
        let (silentHost, _) = SimulatedSerialPort.pair(clock: clock, settings: .rs485)
        let wall = SimulatedRS485Bus(port: wallDevice, clock: clock, ids: [3, 4])
        let board = SimulatedChainlinkController(port: boardDevice, clock: clock, modules: 12)
        let running = [clock.task { await wall.run() }, clock.task { await board.run() }]
        defer { for task in running { task.cancel() } }
        let ports: [String: SimulatedSerialPort<EventClock>] = ["ttyUSB0": wallHost, "ttyUSB1": boardHost, "ttyUSB2": silentHost]
        let opened = OpenedPorts()
        let search = HardwareSearch(
            devices: layout.dev, holders: PortHolders(locks: layout.locks), clock: clock, start: { clock.task($0) }
        ) { path, _ in
            let name = path.split(separator: "/").last.map(String.init) ?? path
            opened.add(name)
            guard let port = ports[name] else { throw HardwareError(device: path, problem: "busy", remedy: nil) }
            port.reconnect()  // closed by the probe before
            return port
        }
        // The ports are asked at once by tasks on the clock: the test waits for them without
        // holding time back.
        let found = try #require(await clock.standingAside { await search.search(ids: 1...6, inUse: [layout.dev + "/ttyAMA0": "main"]) })
        let answers = Dictionary(uniqueKeysWithValues: found.serialPorts.map { ($0.device.split(separator: "/").last.map(String.init) ?? "", $0) })
        #expect(answers["ttyUSB0"]?.answered.map { if case .rs485(let modules, _) = $0 { modules.map(\.id) } else { [] } } == [3, 4])
        #expect(answers["ttyUSB1"]?.answered == .chainlink(modules: 12, drum: chainlink52Flaps))
        #expect(answers["ttyUSB2"]?.answered == .nothing)
        #expect(answers["ttyUSB3"]?.heldBy?.contains("busy") == true, "a port that will not open is held by someone")
        #expect(answers["ttyAMA0"]?.answered == nil && !opened.names.contains("ttyAMA0"), "this board's own port is left alone")
        let (last, doing) = (await search.found, await search.doing)
        #expect(last == found && doing == nil)
        // One search at a time: a second while the first runs is told so.
        let first = clock.task { await search.search(ids: 1...2) }
        _ = try await clock.standingAside { try await eventually { await search.doing != nil } }
        #expect(await search.search(ids: 1...2) == nil)
        let firstFound = try await clock.standingAside { try await first.value }
        #expect(firstFound != nil)
    }
}

/// The names a search opened, in order.
final class OpenedPorts: Sendable {
    private let opened = Mutex<[String]>([])
    func add(_ name: String) { opened.withLock { $0.append(name) } }
    var names: [String] { opened.withLock { $0 } }
}

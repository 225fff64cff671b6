import ArgumentParser
import FlapHardware
import FlapLinux
import FlapSimulated
import FoundationEssentials
import UnixSignals

/// `flapctl simulate-hardware`: a wall of RS-485 modules and a Chainlink controller on
/// pseudo-terminals, found as USB serial adapters in a folder laid out as `/dev` (`flapd
/// --devices DIR`): what "Find my board" finds on a machine with no hardware. The simulated
/// devices run the firmware's side of each protocol, and each says on stdout what its modules
/// show once they are still.
struct SimulateHardwareCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate-hardware", abstract: "Run a simulated RS-485 wall and Chainlink controller on pseudo-terminals, until stopped.",
        discussion: HelpExamples.discussion(
            "simulate-hardware",
            "Each appears in DIR/serial/by-id as a USB serial adapter would; flapd --devices DIR finds them with Find my board."))
    @Option(help: "The folder laid out as /dev where the devices appear.") var devices: String
    @Option(help: "The RS-485 modules' IDs, first-last (0 for no wall).") var rs485 = "1-8"
    @Option(help: "The firmware the RS-485 modules run: v7 or universal (Universal Firmware, which also answers v).") var firmware = "v7"
    @Option(help: "Universal Firmware modules on the RS-485 bus with no ID yet, announcing themselves.") var unnumbered = 0
    @Option(help: "The Chainlink controller's modules (0 for no controller).") var chainlink = 12
    @Option(help: "A Universal Firmware module whose Hall sensor sees no magnet, by its ID, for its test to find; repeat for more.")
    var deadHallSensor: [Int] = []
    @Option(help: "A module that runs firmware v7 on a Universal Firmware wall (a mixed wall), by its ID; repeat for more.")
    var v7Module: [Int] = []
    @Option(help: "On SIGUSR1, the module of this ID is swapped for a new one with no ID (Universal Firmware), as a broken module is.")
    var swapOnSignal: Int?

    func validate() throws {
        guard ids != nil else { throw ValidationError("--rs485 is FIRST-LAST, such as 1-8, with IDs 1 to 999, or 0") }
        guard ["v7", "universal"].contains(firmware) else { throw ValidationError("--firmware is v7 or universal") }
        guard (0...254).contains(unnumbered) else { throw ValidationError("--unnumbered is 0 to 254 modules") }
        guard (0...1024).contains(chainlink) else { throw ValidationError("--chainlink is 0 to 1024 modules") }
        if !deadHallSensor.isEmpty, firmware != "universal" {
            throw ValidationError("--dead-hall-sensor needs --firmware universal: v7 has no tests")
        }
        if !v7Module.isEmpty, firmware != "universal" { throw ValidationError("--v7-module needs --firmware universal: the rest are v7 already") }
    }

    var ids: ClosedRange<Int>? {
        if rs485 == "0" { return 0...0 }
        let ends = rs485.split(separator: "-").compactMap { Int($0) }
        guard ends.count == 2, (1...999).contains(ends[0]), (ends[0]...999).contains(ends[1]) else { return nil }
        return ends[0]...ends[1]
    }

    func run() async throws {
        let byID = devices + "/serial/by-id"
        try FileManager.default.createDirectory(atPath: byID, withIntermediateDirectories: true)
        let clock = ContinuousClock()
        try await withThrowingDiscardingTaskGroup { group in
            if let ids, ids != 0...0 || unnumbered > 0 {
                let (port, path) = try LinuxSerialPort.pseudoTerminal(settings: .rs485)
                let numbered = ids == 0...0 ? [] : Array(ids)
                let bus = SimulatedRS485Bus(
                    port: port, clock: clock, ids: numbered,
                    serials: firmware == "universal" ? numbered.map { v7Module.contains($0) ? nil : SimulatedRS485Module.serial(made: $0) } : nil,
                    unnumbered: (1...max(1, unnumbered)).prefix(unnumbered).map { SimulatedRS485Module.serial(made: 1000 + $0) })
                var dead = SimulatedRS485Module.Faults()
                dead.hall = 2
                for id in deadHallSensor { await bus.inject(dead, module: id) }
                try link(path, as: byID + "/usb-VestaWidget_Simulated_RS-485_bus-if00-port0")
                group.addTask { await bus.run() }
                if let swapOnSignal {
                    group.addTask {
                        for await _ in await UnixSignalsSequence(trapping: .sigusr1) {
                            let serial = SimulatedRS485Module.serial(made: 2000 + swapOnSignal)
                            await bus.swap(module: swapOnSignal, for: serial)
                            StandardStream.writeOutput("rs485: module \(swapOnSignal) swapped for \(serial)\n")
                        }
                    }
                }
                group.addTask {
                    await Self.report("rs485", every: .milliseconds(200)) {
                        let reel = RS485Reel.firmware.bytes
                        guard await bus.resting() else { return nil }
                        return String(decoding: await bus.flaps().map { $0.map { reel[$0] } ?? UInt8(ascii: "?") }, as: UTF8.self)
                    }
                }
            }
            if chainlink > 0 {
                let (port, path) = try LinuxSerialPort.pseudoTerminal()
                let controller = SimulatedChainlinkController(port: port, clock: clock, modules: chainlink)
                try link(path, as: byID + "/usb-VestaWidget_Simulated_Chainlink_controller-if00")
                group.addTask { await controller.run() }
                group.addTask {
                    await Self.report("chainlink", every: .milliseconds(200)) {
                        let flaps = Array(chainlink52Flaps.utf8)
                        return String(decoding: await controller.flaps().map { flaps[$0 % flaps.count] }, as: UTF8.self)
                    }
                }
            }
        }
    }

    private func link(_ path: String, as name: String) throws {
        try? FileManager.default.removeItem(atPath: name)
        try FileManager.default.createSymbolicLink(atPath: name, withDestinationPath: path)
        StandardStream.writeOutput("\(name) -> \(path)\n")
    }

    /// Says `what` the modules show each time they come to rest showing something new: the same
    /// for two looks in a row (nil: still turning).
    private static func report(_ name: String, every interval: Duration, _ what: @Sendable () async -> String?) async {
        var said: String?, seen: String?
        while !Task.isCancelled {
            let now = await what()
            if let now, now == seen, now != said {
                StandardStream.writeOutput("\(name): \(now)\n")
                said = now
            }
            seen = now
            try? await Task.sleep(for: interval)
        }
    }
}

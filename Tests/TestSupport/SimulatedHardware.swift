import Foundation

/// `flapctl simulate-hardware` running: simulated devices on pseudo-terminals in a folder laid
/// out as `/dev`, each under a stable name as a USB adapter would be.
public struct SimulatedHardware: Sendable {
    /// The simulator, which says on stdout what its modules show.
    public let process: ChildProcess
    /// The folder laid out as `/dev`.
    public let devices: String

    /// The RS-485 bus's stable name.
    public var wall: String { devices + "/serial/by-id/usb-VestaWidget_Simulated_RS-485_bus-if00-port0" }

    /// Starts it with `arguments` (after `--devices`), once its RS-485 bus has its name.
    public static func start(_ arguments: [String]) async throws -> SimulatedHardware {
        let devices = FileManager.default.temporaryDirectory.appendingPathComponent("dev-\(UUID().uuidString)").path
        let process = try ChildProcess(ProcessRunner.builtProduct("flapctl"), ["simulate-hardware", "--devices", devices] + arguments)
        let hardware = SimulatedHardware(process: process, devices: devices)
        guard try await eventually({ process.stdout.contains(hardware.wall + " -> ") }) else {
            await process.stop()
            throw PeerError("flapctl simulate-hardware did not start its bus: \(process.stderr)")
        }
        return hardware
    }

    /// flapd driving the wall as a panel of `size` with the rs485 driver: its configured
    /// driver on the bus's name, not --simulate's twin.
    public func flapdDrivingTheWall(size: String, id: String = "wall") async throws -> FlapdProcess {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("wall-\(UUID().uuidString).toml").path
        try "[[panel]]\nid = \"\(id)\"\ndriver = \"rs485\"\ndevice = \"\(wall)\"\nsize = \"\(size)\"\n".write(
            toFile: config, atomically: true, encoding: .utf8)
        return try await FlapdProcess.start(arguments: ["--no-sound", "--config", config, "--devices", devices], simulate: false)
    }

    /// Stops the simulator.
    public func stop() async { await process.stop() }
}

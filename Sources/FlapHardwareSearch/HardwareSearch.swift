import FlapHardware

/// "Find my board": this machine's serial ports, each one another program does not hold asked
/// with each serial driver's greeting (RS-485 modules first, whose `d` is a quiet question, then
/// a Chainlink controller), all at once as a bus is listened to for a quarter of a minute, and
/// the devices that do not answer listed as present. Ports a panel of this board already drives
/// are named and left alone. One search at a time; what it is doing is readable while it runs.
public actor HardwareSearch<C: Clock> where C.Duration == Duration {
    /// Opens a port with its settings; the appliance gives the Linux one, tests a pseudo-terminal's.
    public typealias Opener = @Sendable (String, SerialSettings) throws -> any SerialPort
    /// Starts the task that asks one port: a plain task on the appliance; on a simulated clock,
    /// one that clock keeps time for.
    public typealias Starter = @Sendable (@escaping @Sendable () async -> FoundSerialPort) -> Task<FoundSerialPort, any Error>

    private let listing: SerialPortListing
    private let holders: PortHolders
    private let devices: String
    private let open: Opener
    private let start: Starter
    private let clock: C

    /// What the last search found, or nil before the first.
    public private(set) var found: FoundHardware?
    /// Whether a search is under way.
    private var searching = false
    /// What the search is doing on each port, by its path.
    private var asking: [String: String] = [:]

    /// What the search under way is doing (`asking /dev/serial/by-id/… for RS-485 modules 1–32`), or nil.
    public var doing: String? {
        guard searching else { return nil }
        return asking.isEmpty ? "listing the ports" : asking.sorted { $0.key < $1.key }.map(\.value).joined(separator: "; ")
    }

    /// A search of the devices under `devices` (`/dev`, or a folder laid out as it is).
    public init(
        devices: String = "/dev", holders: PortHolders = .init(), clock: C,
        start: @escaping Starter = { body in Task { () async throws -> FoundSerialPort in await body() } }, open: @escaping Opener
    ) {
        listing = SerialPortListing(devices: devices)
        self.holders = holders
        self.devices = devices
        self.clock = clock
        self.start = start
        self.open = open
    }

    /// The ports and devices as they are, nothing written anywhere.
    public func listed(inUse: [String: String] = [:]) -> FoundHardware {
        FoundHardware(
            serialPorts: listing.ports().map { port in
                FoundSerialPort(path: port.path, device: port.device, heldBy: held(port, inUse: inUse))
            }, local: LocalDevices(devices: devices))
    }

    /// Asks every free port, RS-485 IDs in `ids`. `inUse`: this board's own ports (any name
    /// that leads to the device → what uses it), left alone. Nil when a search is under way.
    public func search(ids: ClosedRange<Int> = 1...32, inUse: [String: String] = [:]) async -> FoundHardware? {
        guard !searching else { return nil }
        searching = true
        var result = listed(inUse: inUse)
        let asked = result.serialPorts.enumerated().filter { $0.element.heldBy == nil }.map { index, port in
            (index, start { await self.ask(port, ids: ids) })
        }
        for (index, task) in asked {
            if let port = try? await task.value { result.serialPorts[index] = port }
        }
        searching = false
        asking.removeAll()
        found = result
        return result
    }

    private func held(_ port: (path: String, device: String), inUse: [String: String]) -> String? {
        if let user = inUse.first(where: { [port.device, port.path].contains(SerialPortListing.resolved($0.key) ?? $0.key) })?.value {
            return "this board (\(user))"
        }
        return holders.holder(of: port.device)
    }

    private func ask(_ port: FoundSerialPort, ids: ClosedRange<Int>) async -> FoundSerialPort {
        var port = port
        defer { asking[port.path] = nil }
        do {
            asking[port.path] = "asking \(port.path) for RS-485 modules \(ids.lowerBound)–\(ids.upperBound) and listening for new ones"
            let bus = try open(port.device, .rs485)
            let modules = try? await SerialProbes.rs485(bus, clock: clock, ids: ids)
            await bus.close()
            if let modules { port.answered = modules; return port }
            asking[port.path] = "asking \(port.path) for a Chainlink controller"
            let controller = try open(port.device, .chainlink)
            let chainlink = try? await SerialProbes.chainlink(controller, clock: clock)
            await controller.close()
            port.answered = chainlink ?? .nothing
        } catch {
            // Held exclusively by a program this one cannot see, or gone meanwhile.
            port.heldBy = "\(error)"
        }
        return port
    }
}

/// A search's findings.
public struct FoundHardware: Sendable, Equatable, Encodable {
    /// Every serial port, by its lasting name.
    public var serialPorts: [FoundSerialPort]
    /// The devices that do not answer.
    public var local: LocalDevices
}

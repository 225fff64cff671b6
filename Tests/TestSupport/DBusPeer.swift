import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// BlueZ on a private system bus (Tests/Peers/bluez_peer.py: dbus-daemon and python-dbusmock's
/// bluez5 template with heart-rate straps).
public typealias BlueZPeer = DBusPeer

/// A D-Bus service played by python-dbusmock on a private system bus (a script of Tests/Peers:
/// bluez_peer.py, avahi_peer.py), driven by commands through a FIFO.
public final class DBusPeer: Sendable {
    /// The private system bus, for `DBUS_SYSTEM_BUS_ADDRESS` or a driver's bus address.
    public let address: String
    private let process: ChildProcess
    private let commands: Int32
    private let counter = Mutex(0)

    /// With `policy` (a D-Bus policy file written for user flapd), the bus denies every method
    /// call that file does not allow, as a system bus does.
    public static func start(script name: String = "bluez_peer.py", policy: String? = nil) async throws -> DBusPeer {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bluez-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let fifo = directory + "/commands"
        guard mkfifo(fifo, 0o600) == 0 else { throw PeerError("mkfifo \(fifo): errno \(errno)") }
        let script = PythonPeer.peersDirectory.appendingPathComponent(name).path
        // Debian's python3-dbusmock and python3-dbus live in the system Python, not the venv.
        let process = try ChildProcess("/usr/bin/python3", [script, fifo] + (policy.map { [$0] } ?? []))
        // Read-write, so opening does not wait for the reader.
        let commands = open(fifo, O_RDWR)
        guard commands >= 0 else { throw PeerError("open \(fifo): errno \(errno)") }
        var address: String?
        _ = try await eventually {
            address = process.stdout.split(separator: "\n").first(where: { $0.hasPrefix("bus ") }).map { String($0.dropFirst(4)) }
            if address == nil, let status = process.poll() { throw PeerError("\(name) exited \(status): \(process.stderr)") }
            return address != nil
        }
        if let address { return DBusPeer(address: address, process: process, commands: commands) }
        await process.stop()
        throw PeerError("\(name) did not start: \(process.stderr)")
    }

    private init(address: String, process: ChildProcess, commands: Int32) {
        self.address = address
        self.process = process
        self.commands = commands
    }

    /// Runs a command of the peer; its result.
    @discardableResult
    public func command(_ text: String) async throws -> String {
        let number = counter.withLock {
            $0 += 1; return $0
        }
        let line = Array("\(number) \(text)\n".utf8)
        guard write(commands, line, line.count) == line.count else { throw PeerError("cannot write to the peer") }
        for _ in 0..<1500 {
            for answer in process.stdout.split(separator: "\n") {
                if answer == "ok \(number)" { return "" }
                if answer.hasPrefix("ok \(number) ") { return String(answer.dropFirst("ok \(number) ".count)) }
                if answer.hasPrefix("error \(number) ") { throw PeerError("\(text): \(answer)") }
            }
            if let status = process.poll() { throw PeerError("the D-Bus peer exited \(status): \(process.stderr)") }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw PeerError("no answer to \(text)")
    }

    /// Calls a method of the mock with JSON-encodable arguments.
    @discardableResult
    public func call(_ method: String, _ arguments: [any Sendable]) async throws -> String {
        let json = try JSONSerialization.data(withJSONObject: arguments.map { $0 as Any })
        return try await command("call \(method) \(String(decoding: json, as: UTF8.self))")
    }

    public func addStrap(_ address: String, name: String, battery: Int = 87, adapter: String = "hci0") async throws {
        try await call("AddHeartRateStrap", [adapter, address, name, battery])
    }

    public func notify(_ address: String, _ value: [UInt8]) async throws {
        try await call("NotifyHeartRate", [address, value.map(Int.init)])
    }

    public func strapState(_ address: String) async throws -> String { try await call("StrapState", [address]) }

    /// Waits until the strap's state in the mock contains `text` (notifying=True, say).
    public func waitForStrap(_ address: String, _ text: String) async throws {
        if try await eventually(every: .milliseconds(50), { try await strapState(address).contains(text) }) { return }
        throw PeerError("strap \(address) never had \(text): \(try await strapState(address))")
    }

    public func stop() async {
        _ = try? await command("quit")
        close(commands)
        if await process.wait() == nil { await process.stop() }
    }
}

import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A real mosquitto broker on a free loopback port, with persistence in a directory of its own,
/// for tests. Extra configuration lines (password file, TLS listener) can be given. Run as root,
/// it stays root (mosquitto would otherwise switch to its own user and lose access to the test's
/// files: keys, persistence).
public final class MosquittoBroker: Sendable {
    public let port: Int
    public let directory: String
    private let extra: String
    private let process: ChildProcessBox

    /// Starts mosquitto (from PATH or /usr/sbin) and waits until it accepts connections.
    public static func start(extraConfiguration: String = "", port: Int? = nil, directory: String? = nil) async throws -> MosquittoBroker {
        let dir = directory ?? FileManager.default.temporaryDirectory.appendingPathComponent("mosq-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return try await launchOnAFreePort(port) { MosquittoBroker(port: $0, directory: dir, extra: extraConfiguration) }
    }

    /// Launches the broker `make` gives for `port`, or for a free port; a free port taken by
    /// someone else before mosquitto bound it (the suite starts many listeners at once) is
    /// replaced by another.
    private static func launchOnAFreePort(_ port: Int?, _ make: (Int) -> MosquittoBroker) async throws -> MosquittoBroker {
        var attempt = 0
        while true {
            let broker = make(try port ?? freePort())
            do {
                try await broker.launch()
                return broker
            } catch let error as PeerError where port == nil && attempt < 5 && error.description.contains("Address already in use") {
                attempt += 1
            }
        }
    }

    /// A broker that admits only the users in `passwordFile` (no anonymous clients).
    public static func startLocked(passwordFile: String) async throws -> MosquittoBroker {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mosq-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return try await launchOnAFreePort(nil) {
            MosquittoBroker(port: $0, directory: dir, extra: "password_file \(passwordFile)\n", anonymous: false)
        }
    }

    private let anonymous: Bool

    private init(port: Int, directory: String, extra: String, anonymous: Bool = true) {
        self.anonymous = anonymous
        self.port = port
        self.directory = directory
        self.extra = extra
        process = ChildProcessBox()
    }

    private func launch() async throws {
        let configuration = """
            listener \(port) 127.0.0.1
            allow_anonymous \(anonymous)
            persistence true
            persistence_location \(directory)/
            autosave_interval 1
            log_dest stderr
            \(getuid() == 0 ? "user root" : "")
            \(extra)
            """
        try configuration.write(toFile: directory + "/mosquitto.conf", atomically: true, encoding: .utf8)
        let binary = ["/usr/sbin/mosquitto", "/usr/bin/mosquitto"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let binary else { throw PeerError("mosquitto is not installed (apt-get install mosquitto)") }
        let child = try ChildProcess(binary, ["-c", directory + "/mosquitto.conf"])
        process.set(child)
        let listening = try await eventually(every: .milliseconds(10)) {
            // Its exit first: whoever took the port would accept the connection too.
            if let status = child.poll() { throw PeerError("mosquitto exited with \(status):\n\(child.stderr)") }
            return Self.accepts(port) && child.stderr.contains("Opening ipv4 listen socket") && !child.stderr.contains("Address already in use")
        }
        if listening { return }
        throw PeerError("mosquitto is not accepting connections on \(port):\n\(child.stderr)")
    }

    /// Stops it gracefully (SIGTERM: it saves its persistence file) and starts it again on the same port.
    public func restart() async throws {
        await stop()
        try await launch()
    }

    /// Stops it gracefully.
    public func stop() async {
        guard let child = process.child else { return }
        child.signal(SIGTERM)
        if await child.wait() == nil { await child.stop() }
    }

    public var log: String { process.child?.stderr ?? "" }

    static func accepts(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }

    /// A port no one listens on now (bound and released).
    public static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw PeerError("no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// Holds the broker's current process across restarts.
final class ChildProcessBox: Sendable {
    private let value = Mutex<ChildProcess?>(nil)
    var child: ChildProcess? { value.withLock { $0 } }
    func set(_ child: ChildProcess) { value.withLock { $0 = child } }
}

#if canImport(Glibc)
    import Glibc
    import SystemPackage
#endif

/// systemd's notification socket (`$NOTIFY_SOCKET`), written without ever waiting.
///
/// libsystemd's `sd_notify` sends on a blocking socket: while the manager's queue is full (a
/// busy systemd, or any reader that has stopped reading) it waits, holding its thread, one of
/// the two that run all of flapd's tasks on a Pi, and with it flapd's stop. No libsystemd call
/// sends without waiting, so the protocol (sd_notify(3): one datagram of `KEY=VALUE` lines to
/// a path, or after `@` an abstract name) is spoken here. A notification that finds the queue
/// full is dropped and reported, as a datagram may be: the next watchdog ping follows soon.
public struct SystemdNotifySocket: Sendable {
    /// Why a notification did not go.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// The manager's queue is full; nothing was waited for.
        case queueFull
        /// `NOTIFY_SOCKET` names no socket this knows how to reach (a `vsock:` address, say).
        case unsupportedAddress(String)
        case system(operation: String, errno: Int32)

        /// What failed, in words.
        public var description: String {
            switch self {
            case .queueFull: "systemd's notify queue is full"
            case .unsupportedAddress(let address): "NOTIFY_SOCKET \(address) is not a unix socket path or @name"
            case .system(let operation, let code): "\(operation): \(Errno(rawValue: code))"
            }
        }
    }

    /// The `sun_path` bytes and the address length to send to; nil without a socket.
    private let address: (path: [UInt8], length: socklen_t)?
    private let problem: Failure?

    /// The socket named by `value`, by default the environment's `NOTIFY_SOCKET`; with none,
    /// notifications go nowhere, as under no service manager.
    public init(_ value: String? = SystemdNotifySocket.environmentValue()) {
        guard let value, !value.isEmpty else {
            (address, problem) = (nil, nil)
            return
        }
        let capacity = MemoryLayout.size(ofValue: sockaddr_un().sun_path)
        var bytes = Array(value.utf8)
        let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path) ?? 2
        switch bytes.first {
        case UInt8(ascii: "/") where bytes.count < capacity:
            address = (bytes, socklen_t(pathOffset + bytes.count + 1))
            problem = nil
        case UInt8(ascii: "@") where bytes.count <= capacity:
            // Linux's abstract namespace: a leading NUL, and the length says where the name ends.
            bytes[0] = 0
            address = (bytes, socklen_t(pathOffset + bytes.count))
            problem = nil
        default:
            (address, problem) = (nil, .unsupportedAddress(value))
        }
    }

    /// `NOTIFY_SOCKET`, when systemd set it.
    public static func environmentValue() -> String? {
        getenv("NOTIFY_SOCKET").map { String(cString: $0) }
    }

    /// Whether there is a socket to notify.
    public var isConfigured: Bool { address != nil || problem != nil }

    /// Sends `state` (such as `READY=1`) at once, or throws why it could not.
    public func send(_ state: String) throws(Failure) {
        if let problem { throw problem }
        guard let address else { return }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw .system(operation: "socket", errno: errno) }
        defer { close(fd) }
        var target = sockaddr_un()
        target.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &target.sun_path) { $0.copyBytes(from: address.path) }
        let message = Array(state.utf8)
        let sent = withUnsafePointer(to: &target) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                sendto(fd, message, message.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT), $0, address.length)
            }
        }
        guard sent < 0 else { return }
        let code = errno
        throw code == EAGAIN || code == EWOULDBLOCK ? .queueFull : .system(operation: "sending to NOTIFY_SOCKET", errno: code)
    }
}

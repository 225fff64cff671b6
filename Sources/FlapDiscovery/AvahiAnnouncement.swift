import FlapLinux
import Logging
import ServiceLifecycle

/// flapd found on the home network: while it runs, avahi-daemon (through its D-Bus API) announces
/// `_https._tcp` and `_http._tcp` services named after the board, so phones and Home Assistant
/// can find it by name; withdrawn when flapd stops. Without avahi-daemon, said once, and nothing
/// else changes: phones reach the board by its address.
public struct AvahiAnnouncement: Service {
    /// The instance name people see ("VestaWidget on kitchen-pi"); avahi's rule on a name taken
    /// by another machine is followed: " #2", " #3"… is added.
    public let name: String
    /// The plain HTTP and HTTPS ports, once both are bound.
    public let ports: @Sendable () async -> (http: Int, https: Int)?
    /// The system bus's address; nil: the system bus (`DBUS_SYSTEM_BUS_ADDRESS` is honoured).
    public let busAddress: String?
    /// Where it logs what it announced and what went wrong.
    public let logger: Logger

    static let avahi = "org.freedesktop.Avahi"
    static let groupInterface = "org.freedesktop.Avahi.EntryGroup"

    /// Announces `name` on the ports `ports` gives once bound, over the system bus (or `busAddress`).
    public init(name: String, ports: @escaping @Sendable () async -> (http: Int, https: Int)?, busAddress: String? = nil, logger: Logger) {
        self.name = name
        self.ports = ports
        self.busAddress = busAddress
        self.logger = logger
    }

    /// Announces flapd until it stops, then withdraws the services; without the system bus or
    /// avahi-daemon it says so once and returns.
    public func run() async throws {
        guard let (http, https) = await ports() else { return }
        let logger = self.logger
        let bus: DBusConnection
        do {
            bus = try DBusConnection.system(address: busAddress) { error in
                logger.notice("the system bus went away: flapd is no longer announced on the network", metadata: ["reason": "\(error)"])
            }
        } catch {
            logger.info("no system bus: flapd is not announced on the network (phones reach it by its address)", metadata: ["reason": "\(error)"])
            try? await gracefulShutdown()
            return
        }
        defer { bus.close() }
        let group: String
        do {
            group = try await announce(on: bus, http: http, https: https)
        } catch let error as DBusError
            where error.name == "org.freedesktop.DBus.Error.ServiceUnknown" || error.name == "org.freedesktop.DBus.Error.NameHasNoOwner"
        {
            logger.info("avahi-daemon is not running: flapd is not announced on the network (phones reach it by its address)")
            try? await gracefulShutdown()
            return
        } catch {
            logger.warning("could not announce flapd on the network", metadata: ["error": "\(error)"])
            try? await gracefulShutdown()
            return
        }
        try? await gracefulShutdown()
        _ = try? await bus.call(Self.avahi, group, Self.groupInterface, "Free", timeout: .seconds(2))
    }

    /// Adds both services to a new entry group and commits it; the group's path.
    private func announce(on bus: DBusConnection, http: Int, https: Int) async throws -> String {
        let made = try await bus.call(Self.avahi, "/", "org.freedesktop.Avahi.Server", "EntryGroupNew")
        guard case .objectPath(let group)? = made.first else { throw DBusError(name: "local.Unexpected", message: "EntryGroupNew answered \(made)") }
        var instance = name
        for attempt in 2...10 {
            do {
                for (type, port) in [("_https._tcp", https), ("_http._tcp", http)] {
                    // interface and protocol -1 (all), flags 0, domain and host "" (avahi's own).
                    _ = try await bus.call(
                        Self.avahi, group, Self.groupInterface, "AddService",
                        [
                            .int32(-1), .int32(-1), .uint32(0), .string(instance), .string(type), .string(""), .string(""),
                            .uint16(UInt16(port)), .array(element: "ay", [.bytes(Array("path=/".utf8))])
                        ])
                }
                _ = try await bus.call(Self.avahi, group, Self.groupInterface, "Commit")
                logger.notice("announced on the network", metadata: ["name": "\(instance)", "services": "_https._tcp \(https), _http._tcp \(http)"])
                return group
            } catch let error as DBusError where error.name == "org.freedesktop.Avahi.CollisionError" {
                _ = try? await bus.call(Self.avahi, group, Self.groupInterface, "Reset")
                instance = "\(name) #\(attempt)"
            }
        }
        throw DBusError(name: "org.freedesktop.Avahi.CollisionError", message: "\(name) and nine others are taken on this network")
    }
}

import CSystemd
import FoundationEssentials
import Logging
import ServiceLifecycle

/// Tells systemd when flapd is ready (Type=notify) and pings its watchdog at half the
/// WatchdogSec interval while the services run. Each ping first awaits `alive`, a round trip
/// through the panels' actors, so a wedged flapd stops pinging and systemd restarts it.
/// Without NOTIFY_SOCKET the notifications go nowhere.
public struct SystemdNotifier: Service {
    private let ready: @Sendable () async -> Bool
    private let alive: @Sendable () async -> Void
    private let logger: Logger

    /// `ready` returns true once every listener is up, false if flapd stops first.
    public init(ready: @escaping @Sendable () async -> Bool, alive: @escaping @Sendable () async -> Void, logger: Logger) {
        self.ready = ready
        self.alive = alive
        self.logger = logger
    }

    public func run() async throws {
        // A listener that cannot start shuts the group down: stop waiting for it then.
        guard await cancelWhenGracefulShutdown({ await ready() }) else { return }
        Self.notify("READY=1\nSTATUS=showing messages")
        logger.info("ready")
        var usec: UInt64 = 0
        guard sd_watchdog_enabled(0, &usec) > 0, usec > 0 else {
            try? await gracefulShutdown()
            return
        }
        let interval = Duration.microseconds(Int64(usec / 2))
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            await alive()
            Self.notify("WATCHDOG=1")
            try? await Task.sleep(for: interval)
        }
        Self.notify("STOPPING=1")
    }

    static func notify(_ state: String) {
        _ = sd_notify(0, state)
    }
}

import CSystemd
import FlapLinux
import FoundationEssentials
import Logging
import ServiceLifecycle

/// Tells systemd when flapd is ready (Type=notify) and pings its watchdog at half the
/// WatchdogSec interval while the services run. Each ping first awaits `alive`, a round trip
/// through the panels' actors, so a wedged flapd stops pinging and systemd restarts it.
/// Without NOTIFY_SOCKET the notifications go nowhere. Nothing here waits for systemd
/// (``SystemdNotifySocket``): a manager that is not reading must not hold flapd's stop.
public struct SystemdNotifier: Service {
    private let ready: @Sendable () async -> Bool
    private let alive: @Sendable () async -> Void
    private let logger: Logger
    private let socket = SystemdNotifySocket()

    /// `ready` returns true once every listener is up, false if flapd stops first.
    public init(ready: @escaping @Sendable () async -> Bool, alive: @escaping @Sendable () async -> Void, logger: Logger) {
        self.ready = ready
        self.alive = alive
        self.logger = logger
    }

    /// Says READY once every listener is up, then pings the watchdog (when the unit has one) at
    /// half its interval while the panels answer, and STOPPING as flapd stops.
    public func run() async throws {
        // A listener that cannot start shuts the group down: stop waiting for it then.
        guard await cancelWhenGracefulShutdown({ await ready() }) else { return }
        guard await sayReady() else { return }
        logger.info("ready")
        var usec: UInt64 = 0
        if sd_watchdog_enabled(0, &usec) > 0, usec > 0 {
            await pingWatchdog(every: .microseconds(Int64(usec / 2)))
        } else {
            try? await gracefulShutdown()
        }
        try? socket.send("STOPPING=1")
    }

    /// READY, sent again every 100 ms while systemd's queue is full: unlike a ping, a READY
    /// that is lost leaves the unit starting until systemd gives up on it. False when flapd
    /// stops first.
    private func sayReady() async -> Bool {
        var told = false
        while true {
            do {
                try socket.send("READY=1\nSTATUS=showing messages")
                return true
            } catch .queueFull {
                if !told { logger.notice("systemd's notify queue is full; READY is said again until it is taken") }
                told = true
                guard (try? await cancelWhenGracefulShutdown({ try await Task.sleep(for: .milliseconds(100)) })) != nil else { return false }
            } catch {
                logger.warning("could not tell systemd that flapd is ready", metadata: ["error": "\(error)"])
                return true
            }
        }
    }

    /// Pings until shutdown. The unit's WatchdogSec=30 makes the interval 15 s, all the time
    /// systemd gives the whole stop: the wait for the next ping ends at shutdown.
    private func pingWatchdog(every interval: Duration) async {
        var refused = false
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            await alive()
            do {
                try socket.send("WATCHDOG=1")
                if refused { logger.notice("systemd takes watchdog pings again") }
                refused = false
            } catch {
                if !refused { logger.warning("a watchdog ping was dropped; trying again at the next", metadata: ["error": "\(error)"]) }
                refused = true
            }
            guard (try? await cancelWhenGracefulShutdown({ try await Task.sleep(for: interval) })) != nil else { return }
        }
    }
}

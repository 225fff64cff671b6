import FlapHTTP
import ServiceLifecycle

/// Beats every watching page's event stream, so a page that has gone is let go even while the
/// boards are still (``LiveBoards/heartbeat()``).
struct LiveBoardsHeartbeat: Service {
    let live: LiveBoards

    func run() async throws {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            guard (try? await cancelWhenGracefulShutdown({ try await Task.sleep(for: LiveBoards.heartbeatPeriod) })) != nil else { return }
            await live.heartbeat()
        }
    }
}

import FlapHTTP
import FlapPresence
import ServiceLifecycle

/// Presence kept moving: expiries on the real clock, each change told to the watching pages and
/// to MQTT; at a stop, everyone still here is last seen then.
struct PresenceService: Service {
    let book: PresenceBook
    let relay: PresenceRelay

    func run() async throws {
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                group.addTask { await book.run(on: ContinuousClock()) }
                group.addTask { await relay.run(on: ContinuousClock()) }
            }
        }
        await book.close()
    }
}

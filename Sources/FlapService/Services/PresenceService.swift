import FlapHTTP
import FlapPresence
import FlapTime
import ServiceLifecycle

/// Presence kept moving: expiries on the appliance's clock, each change told to the watching pages and
/// to MQTT; at a stop, everyone still here is last seen then.
struct PresenceService: Service {
    let book: PresenceBook
    let relay: PresenceRelay
    let clock: ApplianceClock

    func run() async throws {
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                group.addTask { await book.run(on: clock) }
                group.addTask { await relay.run(on: clock) }
            }
        }
        await book.close()
    }
}

import FlapHTTP
import FlapJSON
import FlapSources
import FlapTime
import FoundationEssentials
import ServiceLifecycle

/// The sources fetched, and the triggers looking at them, until shutdown.
struct SourcesService: Service {
    let hub: SourceHub<ApplianceClock>
    let triggers: TriggerRunner<ApplianceClock>?

    func run() async throws {
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                group.addTask { await hub.run() }
                if let triggers { group.addTask { await triggers.run() } }
            }
        }
    }
}

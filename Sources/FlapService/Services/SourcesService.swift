import FlapHTTP
import FlapJSON
import FlapSources
import FoundationEssentials
import ServiceLifecycle

/// The sources fetched, and the triggers looking at them, until shutdown.
struct SourcesService: Service {
    let hub: SourceHub<ContinuousClock>
    let triggers: TriggerRunner<ContinuousClock>?

    func run() async throws {
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                group.addTask { await hub.run() }
                if let triggers { group.addTask { await triggers.run() } }
            }
        }
    }
}

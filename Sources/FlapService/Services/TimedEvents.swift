import FlapTime
import ServiceLifecycle

/// Messages sent for later, released at their instants, and recurring messages, fired at theirs,
/// until shutdown; the last time flapd saw
/// on a trusted clock kept every quarter of an hour and at the end (``ClockTrust``'s last rule).
struct TimedEvents: Service {
    let releases: ReleaseTimer<ApplianceClock>
    let schedules: ScheduleRunner<ApplianceClock>
    let clockTrust: ClockTrust

    func run() async throws {
        await cancelWhenGracefulShutdown { [clockTrust] in
            await withDiscardingTaskGroup { group in
                group.addTask { await releases.run() }
                group.addTask { await schedules.run() }
                group.addTask {
                    while !Task.isCancelled {
                        clockTrust.recordSeen()
                        try? await Task.sleep(for: .seconds(900))
                    }
                }
            }
        }
        clockTrust.recordSeen()
    }
}

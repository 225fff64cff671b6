import FlapHeartRate
import FlapMetrics
import FlapSensorDrivers
import Logging
import ServiceLifecycle

/// The heart-rate sources as one of flapd's services: the hub reads them until shutdown.
struct HeartRateService: Service {
    let hub: HeartRateHub

    /// The hub for `sensors`; nil when there are none. A source that cannot be made (bad
    /// settings) stops flapd with the reason; one that cannot be reached is a state, reported.
    static func hub(_ sensors: [SensorSettings], metrics: FlapMetrics, logger: Logger) throws -> HeartRateHub? {
        guard !sensors.isEmpty else { return nil }
        var sources: [(settings: SensorSettings, sensor: HeartRateHub.Source)] = []
        for (index, settings) in sensors.enumerated() {
            do {
                sources.append((settings, try HeartRateSources.make(settings, seed: UInt64(index + 1))))
            } catch {
                throw ServiceError.sensorUnavailable(number: index + 1, driver: settings.driver.rawValue, reason: "\(error)")
            }
        }
        return HeartRateHub(sources: sources, metrics: metrics, logger: logger)
    }

    func run() async throws {
        await cancelWhenGracefulShutdown { await hub.run() }
    }
}

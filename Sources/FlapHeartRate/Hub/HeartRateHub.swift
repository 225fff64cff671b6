import FlapCore
import FlapHardware
import FlapMetrics
import FlapPrimitives
import Logging

/// Runs every heart-rate source, keeps each source's state and each strap's latest reading in
/// memory, and hands readings to whoever listens (the rooms, `flapctl hr`). Readings are never
/// written anywhere: the log shows them at debug level only, and metrics count them without
/// their values.
public actor HeartRateHub {
    /// A reading on the continuous clock.
    public typealias Sample = HeartRateSample<ContinuousClock.Instant>
    /// A source of readings, made from its settings where the drivers are chosen (FlapSensorDrivers).
    public typealias Source = any HeartRateSensor<ContinuousClock.Instant>

    private struct RunningSource {
        let sensor: HeartRateHub.Source
        let settings: SensorSettings
        var state: HeartRateSensorState = .searching
        var straps: [StrapIdentity: HeartRateSensorState] = [:]
    }

    private var sources: [RunningSource]
    private var latest: [StrapIdentity: Sample] = [:]
    private let listeners = Watchers<Sample>()
    private let metrics: FlapMetrics?
    private let logger: Logger

    /// A hub of `sources`, each with its settings, counting into `metrics`.
    public init(sources: [(settings: SensorSettings, sensor: Source)], metrics: FlapMetrics?, logger: Logger) {
        self.sources = sources.map { RunningSource(sensor: $0.sensor, settings: $0.settings) }
        self.metrics = metrics
        self.logger = logger
    }

    /// Reads every source until cancelled.
    public func run() async {
        let (events, continuation) = AsyncStream<(Int, HeartRateEvent<ContinuousClock.Instant>)>.makeStream()
        let sensors = sources.map(\.sensor)
        await withTaskGroup(of: Void.self) { group in
            for (index, sensor) in sensors.enumerated() {
                group.addTask { await sensor.run { continuation.yield((index, $0)) } }
            }
            // The loop ends when this task is cancelled; then the sources are.
            for await (index, event) in events { receive(event, from: index) }
            group.cancelAll()
        }
        listeners.finishAll()
    }

    /// Every reading from now on, until the stream is dropped.
    public func readings() -> AsyncStream<Sample> {
        listeners.watch(bufferingPolicy: .bufferingNewest(256))
    }

    private func receive(_ event: HeartRateEvent<ContinuousClock.Instant>, from index: Int) {
        let name = sources[index].sensor.name
        switch event {
        case .sample(let sample):
            latest[sample.strap] = sample
            metrics?.heartRateSample(sensor: name)
            logger.debug("heart rate", metadata: ["strap": "\(label(sample.strap, index))", "bpm": "\(sample.bpm)", "rr": "\(sample.rrIntervals)"])
            listeners.yield(sample)
        case .status(let status):
            if let strap = status.strap {
                sources[index].straps[strap] = status.state
                if case .lost = status.state { latest[strap] = nil }
                log(status.state, "\(name): strap \(label(strap, index))")
            } else {
                sources[index].state = status.state
                metrics?.heartRateSensor(sensor: name, connected: status.state == .connected)
                log(status.state, name)
            }
            var counts: [String: Int] = [:]
            for state in sources[index].straps.values { counts[state.name, default: 0] += 1 }
            metrics?.heartRateStraps(sensor: name, byState: counts)
        case .notice(let text):
            logger.info("\(text)")
        }
    }

    private func log(_ state: HeartRateSensorState, _ subject: String) {
        switch state {
        case .lost: logger.warning("\(subject): \(state)")
        default: logger.notice("\(subject): \(state)")
        }
    }

    private func label(_ strap: StrapIdentity, _ index: Int) -> String {
        sources[index].settings.names[strap.address].map { "\($0) (\(strap.address))" } ?? strap.address
    }

    /// Each source and its straps, as they stand.
    public func report(now: ContinuousClock.Instant = .now) -> [SensorReport] {
        sources.map { source in
            SensorReport(
                name: source.sensor.name, driver: source.settings.driver.rawValue, state: source.state.name,
                reason: source.state.reason, remedy: source.state.remedy,
                straps: source.straps.sorted { $0.key < $1.key }.map { strap, state in
                    let sample = latest[strap]
                    return StrapReport(
                        id: strap.description, address: strap.address, name: source.settings.names[strap.address] ?? strap.address,
                        state: state.name, reason: state.reason, contact: sample?.contact.rawValue, bpm: sample?.bpm,
                        rrMilliseconds: sample.map { $0.rrIntervals.map { Int((Double($0) * 1000 / 1024).rounded()) } },
                        battery: sample?.battery, rssi: sample?.rssi, bodyLocation: sample?.bodyLocation?.name,
                        secondsSinceReading: sample.map { ($0.instant.duration(to: now) / .milliseconds(100)).rounded() / 10 })
                })
        }
    }
}

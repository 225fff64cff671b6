import FlapHardware
import FlapHeartRate
import FlapMetrics
import FlapSimulated
import Logging
import Synchronization
import TestSupport
import Testing

/// The hub: each source's state and each strap's latest reading, listeners, and where heart
/// rates must not go (the log above debug level, metrics).
@Suite(.timeLimit(.minutes(3))) struct HeartRateHubTests {
    typealias Instant = ContinuousClock.Instant
    static let ana = StrapIdentity(driver: "ble", address: "C4:7C:8D:6A:12:34")
    static let ben = StrapIdentity(driver: "ble", address: "E8:11:22:33:44:55")

    static func script(_ now: Instant) -> [HeartRateEvent<Instant>] {
        [
            .status(HeartRateStatus(strap: nil, .searching)),
            .status(HeartRateStatus(strap: nil, .connected)),
            .status(HeartRateStatus(strap: ana, .connected)),
            .sample(HeartRateSample(strap: ana, bpm: 137, contact: .detected, rrIntervals: [448], battery: 80, rssi: -61, instant: now)),
            .status(HeartRateStatus(strap: ben, .connected)),
            .sample(HeartRateSample(strap: ben, bpm: 143, instant: now)),
            .status(HeartRateStatus(strap: ben, .lost(reason: "disconnected", remedy: "is it worn?"))),
            .notice("strap found")
        ]
    }

    func hub(_ recorded: LogRecords, metrics: FlapMetrics) -> HeartRateHub {
        var settings = SensorSettings(driver: SensorDriver(rawValue: "ble"), device: "hci0")
        settings.names = [Self.ana.address: "Ana"]
        let sensor = ScriptedHeartRateSensor(name: "ble hci0", script: Self.script(.now), pause: .milliseconds(5), clock: ContinuousClock())
        var logger = Logger(label: "test") { _ in RecordingLogHandler(records: recorded) }
        logger.logLevel = .trace
        return HeartRateHub(sources: [(settings, sensor)], metrics: metrics, logger: logger)
    }

    @Test func reportsEachSourceAndItsStrapsLatestReading() async throws {
        let metrics = FlapMetrics()
        let hub = hub(LogRecords(), metrics: metrics)
        let readings = await hub.readings()
        let running = Task { await hub.run() }
        defer { running.cancel() }
        var heard: [Int] = []
        for await sample in readings {
            heard.append(sample.bpm)
            if heard.count == 2 { break }
        }
        #expect(heard == [137, 143])
        var report = await hub.report()
        _ = try await eventually(every: .milliseconds(10)) {
            report = await hub.report()
            return report.first?.straps.last?.state == "lost"
        }
        let source = try #require(report.first)
        #expect(source.name == "ble hci0" && source.driver == "ble" && source.state == "connected")
        #expect(source.straps.count == 2)
        let ana = source.straps[0]
        #expect(ana.id == "ble:C4:7C:8D:6A:12:34" && ana.name == "Ana" && ana.state == "connected")
        #expect(ana.bpm == 137 && ana.contact == "detected" && ana.rrMilliseconds == [438] && ana.battery == 80 && ana.rssi == -61)
        let ben = source.straps[1]
        #expect(ben.name == ben.address && ben.state == "lost" && ben.reason == "disconnected" && ben.bpm == nil)
    }

    @Test func heartRatesStayOutOfTheLogAboveDebugAndOutOfMetrics() async throws {
        let records = LogRecords()
        let metrics = FlapMetrics()
        let hub = hub(records, metrics: metrics)
        let running = Task { await hub.run() }
        // Both readings counted: then both have been through the log.
        _ = try await eventually(every: .milliseconds(10)) {
            metrics.exposition().contains("flapd_heart_rate_samples_total{sensor=\"ble hci0\"} 2")
        }
        running.cancel()
        await running.value
        let lines = records.all
        #expect(lines.contains { $0.level == .debug && $0.text.contains("137") }, "the readings reach the debug log, so the check below can see them")
        for line in lines where line.level > .debug {
            #expect(!line.text.contains("137") && !line.text.contains("143") && !line.text.contains("bpm"), "\(line.level): \(line.text)")
        }
        let exposition = metrics.exposition()
        #expect(exposition.contains("flapd_heart_rate_samples_total{sensor=\"ble hci0\"} 2"))
        for line in exposition.split(separator: "\n") where line.contains("heart_rate") {
            #expect(!line.contains("137") && !line.contains("143"), "\(line)")
        }
    }
}

/// Log lines a test reads back.
final class LogRecords: Sendable {
    struct Record: Sendable {
        var level: Logger.Level
        var message: String
        var text: String
    }

    private let records = Mutex<[Record]>([])
    var all: [Record] { records.withLock { $0 } }
    func append(_ record: Record) { records.withLock { $0.append(record) } }
}

struct RecordingLogHandler: LogHandler {
    let records: LogRecords
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata?, source: String, file: String, function: String, line: UInt) {
        let all = self.metadata.merging(metadata ?? [:]) { $1 }
        records.append(
            .init(level: level, message: "\(message)", text: "\(message) " + all.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: " ")))
    }
}

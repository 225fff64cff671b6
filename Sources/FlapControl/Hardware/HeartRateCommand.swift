import ArgumentParser
import FlapCore
import FlapEndpoints
import FlapHardware
import FlapHeartRate
import FlapSensorDrivers
import FoundationEssentials
import Logging

/// `flapctl hr`: live heart rates, from a running flapd or straight from a sensor.
struct HeartRateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hr", abstract: "Show live heart rates: one line a second for one strap, a table for several.",
        discussion: HelpExamples.discussion(
            "hr",
            """
            Without a source option it asks a running flapd (GET /v1/sensors). With one it reads the \
            sensor itself (stop flapd first if it uses the same adapter or stick): --ble [ADDRESS…] \
            (any heart-rate strap in range, or those named), --ant DEVICE [NUMBER…], --serial DEVICE, \
            --simulate. Readings are shown, never stored.
            """))

    @OptionGroup var connection: ConnectionOptions

    @Flag(help: "Read Bluetooth LE straps through BlueZ.")
    var ble = false

    @Option(help: "The Bluetooth adapter for --ble (default: the first).")
    var adapter: String?

    @Option(help: "Read ANT+ straps through the ANT stick on this port (/dev/ant0).")
    var ant: String?

    @Option(help: "Read a pulse sensor writing text lines on this port.")
    var serial: String?

    @Option(help: "--serial: the line format (auto, number, json, prefix:TEXT).")
    var format = "auto"

    @Option(help: "--serial or --ant: the baud rate (default 9600 for --serial, 115200 for --ant).")
    var baud: Int?

    @Flag(help: "Read simulated straps.")
    var simulate = false

    @Option(help: "--simulate: how many people.")
    var people = 3

    @Argument(help: "With --ble: straps to follow (addresses or advertised names); with --ant: device numbers.")
    var straps: [String] = []

    @Option(help: "Stop after this many seconds (default: until interrupted).")
    var seconds: Double?

    @Flag(help: "Print each second's readings as a line of JSON.")
    var json = false

    func validate() throws {
        let sources = [ble, ant != nil, serial != nil, simulate].filter { $0 }.count
        if sources > 1 { throw ValidationError("choose one of --ble, --ant, --serial and --simulate") }
        if !straps.isEmpty, !ble, ant == nil { throw ValidationError("straps go with --ble or --ant") }
        if baud != nil, ant == nil, serial == nil { throw ValidationError("--baud goes with --serial or --ant") }
        if let settings = try sensorSettings(), let problem = SensorKinds.problems(settings).first {
            throw ValidationError(problem.description)
        }
    }

    /// The sensor to read directly, or nil to ask flapd.
    func sensorSettings() throws -> SensorSettings? {
        if ble {
            SensorSettings(driver: .ble, device: adapter, options: BLESensorKind.Options(straps: straps))
        } else if let ant {
            SensorSettings(driver: .ant, device: ant, options: ANTSensorKind.Options(straps: straps, baudRate: baud))
        } else if let serial {
            SensorSettings(
                driver: .serial, device: serial, options: SerialSensorKind.Options(format: try HeartRateLineFormat.named(format), baudRate: baud))
        } else if simulate {
            SensorSettings(driver: .simulated, options: SimulatedSensorKind.Options(people: people))
        } else {
            nil
        }
    }

    func run() async throws {
        let deadline = seconds.map { ContinuousClock.now + .milliseconds(Int($0 * 1000)) }
        let read: @Sendable () async throws -> [SensorReport]
        var direct: Task<Void, Never>?
        if let settings = try sensorSettings() {
            let sensor = try HeartRateSources.make(settings)
            var logger = Logger(label: "hr") { StreamLogHandler.standardError(label: $0) }
            logger.logLevel = .notice
            let hub = HeartRateHub(sources: [(settings, sensor)], metrics: nil, logger: logger)
            direct = Task { await hub.run() }
            read = { await hub.report() }
        } else {
            let flapd = try connection.connection()
            read = {
                let reply = try await flapd.request(.sensors)
                guard reply.status == 200 else { throw InputError("flapd answered \(reply.status): \(reply.error)") }
                return try JSONDecoder().decode(SensorsAnswer.self, from: reply.body).sensors
            }
        }
        defer { direct?.cancel() }
        let redraw = StandardStream.outputIsTerminal && !json
        let clock = ContinuousClock()
        var next = clock.now + .seconds(1)
        while deadline.map({ next <= $0 }) ?? true {
            try await clock.sleep(until: next)
            next += .seconds(1)
            let sensors = try await read()
            let out = StandardStream.bufferedOutput()
            if json {
                let data = try JSONEncoder.sorted.encode(SensorsAnswer(sensors: sensors))
                out.write(String(decoding: data, as: UTF8.self) + "\n")
            } else {
                let text = HeartRateTable.render(sensors, time: Self.time())
                let several = sensors.flatMap(\.straps).count > 1
                out.write(redraw && several ? "\u{1B}[H\u{1B}[2J" + text : text + (several ? "\n" : ""))
            }
            out.flush()
        }
        direct?.cancel()
        await direct?.value
    }

    /// Read once: the line is drawn every second.
    private static let zone = ZoneRules.current()

    private static func time() -> String {
        zone.text(Date(), seconds: true, withDate: false)
    }
}

struct SensorsAnswer: Codable {
    var sensors: [SensorReport]
}

extension JSONEncoder {
    static var sorted: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }
}

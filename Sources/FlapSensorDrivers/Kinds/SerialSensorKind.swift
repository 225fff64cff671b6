import FlapHardware
import FlapHeartRate
import FlapLinux
import FlapPrimitives

extension SensorDriver {
    /// A pulse sensor writing text lines on a serial port (`device`: the port, required).
    public static let serial = SensorDriver(rawValue: "serial")
}

/// `driver = "serial"`: a pulse sensor (an Arduino, a microcontroller) writing a heart rate a line.
public struct SerialSensorKind: SensorKind {
    /// How its lines are written and how fast.
    public struct Options: SensorOptions, Equatable {
        /// `auto`, `number`, `json` or `prefix:HR:` in settings.
        public var format: HeartRateLineFormat
        /// The port's baud rate; nil: 9600.
        public var baudRate: Int?

        /// Options reading `format` at `baudRate`.
        public init(format: HeartRateLineFormat = .automatic, baudRate: Int? = nil) {
            self.format = format
            self.baudRate = baudRate
        }
    }

    /// The kind.
    public init() {}

    /// Its name in settings.
    public var driver: SensorDriver { .serial }

    /// Reads `format` and `baud`.
    public func options(reading table: inout some SensorTableReading) -> any SensorOptions {
        var options = Options(baudRate: table.int("baud"))
        if let format = table.string("format") {
            do { options.format = try HeartRateLineFormat.named(format) } catch { table.fail(error.key, error.problem) }
        }
        return options
    }

    /// What is wrong with `sensor`, each naming its key.
    public func problems(_ sensor: SensorSettings) -> [SensorSettingsError] {
        var found: [SensorSettingsError] = sensor.device == nil ? [.portNeeded] : []
        if let baud = sensor.options(Options.self)?.baudRate, baud <= 0 { found.append(.baudNotPositive(baud)) }
        return found
    }

    /// The source `sensor` describes.
    public func make(_ sensor: SensorSettings, seed: UInt64, clock: ContinuousClock) throws -> HeartRateHub.Source {
        guard let device = sensor.device else { throw SensorSettingsError.portNeeded }
        let options = sensor.options(Options.self) ?? Options()
        let serial = SerialSettings(baudRate: options.baudRate ?? 9600)
        return SerialHeartRateSensor(device: device, format: options.format, clock: clock) {
            try LinuxSerialPort(path: device, settings: serial)
        }
    }
}

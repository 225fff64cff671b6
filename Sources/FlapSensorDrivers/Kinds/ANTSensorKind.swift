import FlapHardware
import FlapHeartRate
import FlapLinux
import FlapPrimitives

extension SensorDriver {
    /// An ANT+ strap through an ANT USB stick (`device`: the stick's port, `/dev/ant0`).
    public static let ant = SensorDriver(rawValue: "ant")
}

/// `driver = "ant"`: ANT+ heart-rate straps through an ANT USB stick on a serial port.
public struct ANTSensorKind: SensorKind {
    /// The straps it follows and the stick's speed.
    public struct Options: FollowsStraps, Equatable {
        /// Device numbers (1 to 65535); empty: any in range.
        public var straps: [String]
        /// The stick's baud rate; nil: 115200, what a 0fcf:1004 stick speaks.
        public var baudRate: Int?

        /// Options following `straps` at `baudRate`.
        public init(straps: [String] = [], baudRate: Int? = nil) {
            self.straps = straps
            self.baudRate = baudRate
        }
    }

    /// Where the stick is unless `device` says.
    public static let defaultDevice = "/dev/ant0"

    /// The kind.
    public init() {}

    /// Its name in settings.
    public var driver: SensorDriver { .ant }

    /// Reads `straps` and `baud`.
    public func options(reading table: inout some SensorTableReading) -> any SensorOptions {
        Options(straps: table.words("straps", example: "[12345, 23456]") ?? [], baudRate: table.int("baud"))
    }

    /// What is wrong with `sensor`, each naming its key.
    public func problems(_ sensor: SensorSettings) -> [SensorSettingsError] {
        let options = sensor.options(Options.self) ?? Options()
        var found = options.straps.filter { UInt16($0).map { $0 > 0 } != true }.map(SensorSettingsError.notAnANTDeviceNumber)
        if let baud = options.baudRate, baud <= 0 { found.append(.baudNotPositive(baud)) }
        return found
    }

    /// The source `sensor` describes.
    public func make(_ sensor: SensorSettings, seed: UInt64, clock: ContinuousClock) throws -> HeartRateHub.Source {
        let options = sensor.options(Options.self) ?? Options()
        let device = sensor.device ?? Self.defaultDevice
        let serial = SerialSettings(baudRate: options.baudRate ?? 115_200)
        return ANTHeartRateSensor(device: device, deviceNumbers: options.straps.compactMap { UInt16($0) }, clock: clock) {
            try LinuxSerialPort(path: device, settings: serial)
        }
    }
}

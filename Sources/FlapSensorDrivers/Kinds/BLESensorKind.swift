import FlapHeartRate
import FlapLinux
import FlapPrimitives

extension SensorDriver {
    /// A Bluetooth LE strap through BlueZ (`device`: the adapter, `hci0`; none: the first).
    public static let ble = SensorDriver(rawValue: "ble")
}

/// `driver = "ble"`: straps speaking the Bluetooth Heart Rate Service, through BlueZ on the system bus.
public struct BLESensorKind: SensorKind {
    /// The straps it follows.
    public struct Options: FollowsStraps, Equatable {
        /// Bluetooth addresses or advertised names; empty: any in range.
        public var straps: [String]

        /// Options following `straps`.
        public init(straps: [String] = []) { self.straps = straps }
    }

    /// The kind.
    public init() {}

    /// Its name in settings.
    public var driver: SensorDriver { .ble }

    /// Reads `straps`.
    public func options(reading table: inout some SensorTableReading) -> any SensorOptions {
        Options(straps: table.words("straps", example: "[\"C4:7C:8D:6A:12:34\", \"Polar H10 6A1234\"]") ?? [])
    }

    /// What is wrong with `sensor`, each naming its key.
    public func problems(_ sensor: SensorSettings) -> [SensorSettingsError] {
        guard let device = sensor.device, !device.isEmpty, !device.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return [] }
        return [.notAnAdapter(device)]
    }

    /// The source `sensor` describes.
    public func make(_ sensor: SensorSettings, seed: UInt64, clock: ContinuousClock) throws -> HeartRateHub.Source {
        try BlueZHeartRateSensor(adapter: sensor.device, straps: sensor.options(Options.self)?.straps ?? [], clock: clock)
    }
}

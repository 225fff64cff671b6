import FlapHeartRate
import FlapPrimitives
import FlapSimulated

extension SensorDriver {
    /// Synthetic wearers, no hardware (`flapd --simulate`).
    public static let simulated = SensorDriver(rawValue: "simulated")
}

/// `driver = "simulated"`: people wearing synthetic straps, whose hearts speed up and settle.
public struct SimulatedSensorKind: SensorKind {
    /// How many wear straps.
    public struct Options: SensorOptions, Equatable {
        /// 1 to 100.
        public var people: Int

        /// Options for `people` wearers.
        public init(people: Int = 3) { self.people = people }
    }

    /// The kind.
    public init() {}

    /// Its name in settings.
    public var driver: SensorDriver { .simulated }
    /// It has no device.
    public var takesDevice: Bool { false }

    /// Reads `people`.
    public func options(reading table: inout some SensorTableReading) -> any SensorOptions {
        Options(people: table.int("people") ?? Options().people)
    }

    /// What is wrong with `sensor`, each naming its key.
    public func problems(_ sensor: SensorSettings) -> [SensorSettingsError] {
        let people = (sensor.options(Options.self) ?? Options()).people
        return (1...100).contains(people) ? [] : [.peopleOutOfRange(people)]
    }

    /// The source `sensor` describes.
    public func make(_ sensor: SensorSettings, seed: UInt64, clock: ContinuousClock) throws -> HeartRateHub.Source {
        SyntheticHeartRateSensor(count: (sensor.options(Options.self) ?? Options()).people, seed: seed, clock: clock)
    }
}

import FlapHeartRate

/// A kind of heart-rate sensor, as `driver = "…"` in a `[[sensor]]` and `--sensor NAME[=DEVICE]`
/// name it: the keys its sensors take (read into its ``SensorOptions``), what must hold of
/// them, and how one is made. The kinds there are ``SensorKinds/all``, the one list.
public protocol SensorKind: Sendable {
    /// Its name in settings.
    var driver: SensorDriver { get }
    /// Whether its sensors have a `device` (a simulated one has none).
    var takesDevice: Bool { get }

    /// Reads the keys only sensors of this kind take: reading a key declares it, and any other
    /// is refused, naming the kinds that read it.
    func options(reading table: inout some SensorTableReading) -> any SensorOptions
    /// What is wrong with `sensor`, one of this kind, each naming its key.
    func problems(_ sensor: SensorSettings) -> [SensorSettingsError]
    /// The source `sensor` describes, keeping time by `clock`; `seed` varies a simulated one's wearers.
    func make(_ sensor: SensorSettings, seed: UInt64, clock: ContinuousClock) throws -> HeartRateHub.Source
}

extension SensorKind {
    /// A sensor has a device unless its kind says.
    public var takesDevice: Bool { true }
}

/// How a kind reads its keys from its `[[sensor]]` (flapd's configuration reader): each key
/// asked for is declared, and a value of the wrong type is a problem the reader records.
public protocol SensorTableReading {
    /// A string, or nil when the key is absent.
    mutating func string(_ key: String) -> String?
    /// A whole number, or nil when the key is absent.
    mutating func int(_ key: String) -> Int?
    /// A list of strings or whole numbers, each as text; nil when the key is absent.
    mutating func words(_ key: String, example: String) -> [String]?
    /// Records that `key` is wrong, in `problem`'s words.
    mutating func fail(_ key: String, _ problem: String)
}

/// A kind's options that follow some straps by name or number (empty: any in range).
public protocol FollowsStraps: SensorOptions {
    /// The straps to follow.
    var straps: [String] { get }
}

/// Every kind of heart-rate sensor flapd knows, in the order messages list them.
public enum SensorKinds {
    /// The kinds.
    public static let all: [any SensorKind] = [BLESensorKind(), ANTSensorKind(), SerialSensorKind(), SimulatedSensorKind()]

    /// The kind of `driver`, if there is one.
    public static func kind(_ driver: SensorDriver) -> (any SensorKind)? { all.first { $0.driver == driver } }

    /// The kinds' names.
    public static var names: [String] { all.map(\.driver.rawValue) }

    /// `DRIVER[=DEVICE]`, as `--sensor` takes it, with its kind's defaults.
    public static func settings(flag: String) throws(SensorSettingsError) -> SensorSettings {
        let parts = flag.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let driver = SensorDriver(rawValue: parts[0])
        guard kind(driver) != nil else { throw .unknownDriver(parts[0], known: names) }
        let sensor = SensorSettings(driver: driver, device: parts.count > 1 ? parts[1] : nil)
        if let problem = problems(sensor).first { throw problem }
        return sensor
    }

    /// What is wrong with `sensor`, each naming its key: what every sensor must be, then its kind's own.
    public static func problems(_ sensor: SensorSettings) -> [SensorSettingsError] {
        guard let kind = kind(sensor.driver) else { return [.unknownDriver(sensor.driver.rawValue, known: names)] }
        var found: [SensorSettingsError] = []
        if let device = sensor.device {
            if !kind.takesDevice {
                found.append(.deviceForSimulated)
            } else if device.isEmpty {
                found.append(.emptyDevice)
            }
        }
        return found + kind.problems(sensor)
    }

    /// The simulated twin of `sensor` (`flapd --simulate`): as many simulated wearers as it
    /// follows straps (one when it follows any in range).
    public static func simulatedTwin(of sensor: SensorSettings) -> SensorSettings {
        if sensor.driver == .simulated { return SensorSettings(driver: .simulated, options: sensor.options) }
        let straps = (sensor.options as? any FollowsStraps)?.straps.count ?? 0
        return SensorSettings(driver: .simulated, options: SimulatedSensorKind.Options(people: max(1, straps)))
    }
}

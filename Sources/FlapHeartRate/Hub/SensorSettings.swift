import FlapHardware

/// Where heart rates come from: `ble` (a Bluetooth adapter through BlueZ), `ant` (an ANT USB
/// stick), `serial` (a pulse sensor writing text lines), `simulated` (synthetic wearers).
public enum SensorDriver: String, Sendable, CaseIterable {
    case ble, ant, serial, simulated

    /// What is wrong with `name` as a driver.
    public static func problem(_ name: String) -> String {
        "\(name.debugDescription) is not a sensor driver; use one of \(allCases.map(\.rawValue).joined(separator: ", "))"
    }
}

/// A serial sensor's line format as written in settings, or what is wrong with it.
extension HeartRateLineFormat {
    public static func named(_ text: String) throws(SensorSettingsError) -> HeartRateLineFormat {
        guard let format = HeartRateLineFormat(configuration: text) else {
            throw SensorSettingsError(key: "format", problem: "\(text.debugDescription) is not a line format; use auto, number, json or prefix:TEXT")
        }
        return format
    }
}

/// One heart-rate source as configured (`[[sensor]]`, or `--sensor DRIVER[=DEVICE]`).
public struct SensorSettings: Sendable, Equatable {
    public var driver = SensorDriver.simulated
    /// `ble`: the adapter (`hci0`; nil: the first). `ant`: the stick's port (default `/dev/ant0`).
    /// `serial`: the port (required).
    public var device: String?
    /// The straps to follow (empty: any in range). `ble`: Bluetooth addresses or advertised names;
    /// `ant`: device numbers.
    public var straps: [String] = []
    /// `serial`: how lines are written (`auto`, `number`, `json`, `prefix:HR:` in settings).
    public var format = HeartRateLineFormat.automatic
    /// `serial` (default 9600) and `ant` (default 115200: what a 0fcf:1004 stick speaks).
    public var baudRate: Int?
    /// `simulated`: how many people wear straps.
    public var people = 3
    /// What to call each strap: its address as the driver reports it → a name.
    public var names: [String: String] = [:]

    public init(driver: SensorDriver = .simulated, device: String? = nil) {
        self.driver = driver
        self.device = device
    }

    /// `DRIVER[=DEVICE]`, as `--sensor` takes it.
    public init(flag: String) throws(SensorSettingsError) {
        let parts = flag.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard let driver = SensorDriver(rawValue: parts[0]) else { throw SensorSettingsError(key: "driver", problem: SensorDriver.problem(parts[0])) }
        self.init(driver: driver, device: parts.count > 1 ? parts[1] : nil)
        if let problem = problems().first { throw SensorSettingsError(key: problem.key, problem: problem.problem) }
    }

    public static let defaultANTDevice = "/dev/ant0"

    /// What is wrong, each with the key it is about.
    public func problems() -> [SensorSettingsError] {
        var found: [SensorSettingsError] = []
        func fail(_ key: String, _ problem: String) { found.append(SensorSettingsError(key: key, problem: problem)) }
        if let device, device.isEmpty { fail("device", "is empty; leave it out or name the device") }
        switch driver {
        case .serial where device == nil:
            fail("device", "a serial sensor needs its port, such as /dev/ttyACM0")
        case .ant:
            for strap in straps where UInt16(strap).map({ $0 > 0 }) != true {
                fail(
                    "straps",
                    "\(strap.debugDescription) is not an ANT device number (1 to 65535; the number printed on the strap or shown by `flapctl hr --ant`)"
                )
            }
        case .ble:
            if let device, !device.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) {
                fail("device", "\(device.debugDescription) is not an adapter name such as hci0")
            }
        case .simulated:
            if device != nil { fail("device", "a simulated sensor has no device") }
            if !(1...100).contains(people) { fail("people", "must be 1 to 100, not \(people)") }
        case .serial: break
        }
        if let baudRate, baudRate <= 0 { fail("baud", "must be a positive number, not \(baudRate)") }
        return found
    }
}

/// What is wrong with a sensor's settings.
public struct SensorSettingsError: Error, Sendable, Equatable, CustomStringConvertible {
    public var key: String
    public var problem: String

    public init(key: String, problem: String) {
        self.key = key
        self.problem = problem
    }

    public var description: String { "\(key): \(problem)" }
}

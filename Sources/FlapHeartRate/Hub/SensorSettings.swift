import FlapHardware
import FlapPrimitives

/// A kind of heart-rate sensor by its name in settings (`driver = "ble"`, `--sensor ble`): a
/// typed value whose kinds are static members declared beside each kind (FlapSensorDrivers'
/// `Kinds/`), as swift-http-types spells `HTTPRequest.Method`.
public struct SensorDriver: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// Its name in settings.
    public let rawValue: String

    /// The driver named `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Its name.
    public var description: String { rawValue }
}

/// A serial sensor's line format as written in settings, or what is wrong with it.
extension HeartRateLineFormat {
    /// The format written `text` (`auto`, `number`, `json`, `prefix:HR:`), or what is wrong with it.
    public static func named(_ text: String) throws(SensorSettingsError) -> HeartRateLineFormat {
        guard let format = HeartRateLineFormat(configuration: text) else {
            throw .unknownFormat(text)
        }
        return format
    }
}

/// A kind's own settings for one sensor (a BLE sensor's straps, a serial sensor's line format).
public protocol SensorOptions: KindOptions {}

/// One heart-rate source as configured (`[[sensor]]`, or `--sensor DRIVER[=DEVICE]`): what
/// every sensor has, and its kind's own settings.
public struct SensorSettings: Sendable, Equatable {
    /// Its kind.
    public var driver: SensorDriver
    /// Where it is: an adapter, a stick's or a sensor's port (what each kind reads it as).
    public var device: String?
    /// What to call each strap: its address as the driver reports it → a name.
    public var names: [String: String] = [:]
    /// Its kind's own settings; nil: the kind's defaults.
    public var options: (any SensorOptions)?

    /// A `driver` sensor at `device`, with its kind's defaults.
    public init(driver: SensorDriver, device: String? = nil, options: (any SensorOptions)? = nil) {
        self.driver = driver
        self.device = device
        self.options = options
    }

    /// Its kind's own settings as the kind's type.
    public func options<Options: SensorOptions>(_ type: Options.Type) -> Options? { options as? Options }

    /// The same sensor: the same kind, device, names and options.
    public static func == (a: SensorSettings, b: SensorSettings) -> Bool {
        a.driver == b.driver && a.device == b.device && a.names == b.names && sameOptions(a.options, b.options)
    }
}

/// What is wrong with a sensor's settings: each case with the key it concerns (``key``) and
/// what a person is told (``problem``).
public enum SensorSettingsError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `driver` names no driver; the drivers there are.
    case unknownDriver(String, known: [String])
    /// `format` names no line format.
    case unknownFormat(String)
    /// `device` is given but empty.
    case emptyDevice
    /// A serial sensor without its port.
    case portNeeded
    /// A strap of an ant sensor that is not a device number.
    case notAnANTDeviceNumber(String)
    /// A ble sensor's `device` that is not an adapter's name.
    case notAnAdapter(String)
    /// A simulated sensor given a device.
    case deviceForSimulated
    /// A simulated sensor's `people` outside 1 to 100.
    case peopleOutOfRange(Int)
    /// A `baud` that is not positive.
    case baudNotPositive(Int)

    /// The key it is about.
    public var key: String {
        switch self {
        case .unknownDriver: "driver"
        case .unknownFormat: "format"
        case .emptyDevice, .portNeeded, .notAnAdapter, .deviceForSimulated: "device"
        case .notAnANTDeviceNumber: "straps"
        case .peopleOutOfRange: "people"
        case .baudNotPositive: "baud"
        }
    }

    /// What is wrong, in words.
    public var problem: String {
        switch self {
        case .unknownDriver(let name, let known): "\(name.debugDescription) is not a sensor driver; use one of \(known.joined(separator: ", "))"
        case .unknownFormat(let text): "\(text.debugDescription) is not a line format; use auto, number, json or prefix:TEXT"
        case .emptyDevice: "is empty; leave it out or name the device"
        case .portNeeded: "a serial sensor needs its port, such as /dev/ttyACM0"
        case .notAnANTDeviceNumber(let strap):
            "\(strap.debugDescription) is not an ANT device number (1 to 65535; the number printed on the strap or shown by `flapctl hr --ant`)"
        case .notAnAdapter(let device): "\(device.debugDescription) is not an adapter name such as hci0"
        case .deviceForSimulated: "a simulated sensor has no device"
        case .peopleOutOfRange(let people): "must be 1 to 100, not \(people)"
        case .baudNotPositive(let baud): "must be a positive number, not \(baud)"
        }
    }

    /// The key and the problem.
    public var description: String { "\(key): \(problem)" }
}

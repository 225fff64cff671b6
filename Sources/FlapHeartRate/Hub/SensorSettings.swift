import FlapHardware

/// Where heart rates come from: `ble` (a Bluetooth adapter through BlueZ), `ant` (an ANT USB
/// stick), `serial` (a pulse sensor writing text lines), `simulated` (synthetic wearers).
public enum SensorDriver: String, Sendable, CaseIterable {
    case ble, ant, serial, simulated
}

/// A serial sensor's line format as written in settings, or what is wrong with it.
extension HeartRateLineFormat {
    public static func named(_ text: String) throws(SensorSettingsError) -> HeartRateLineFormat {
        guard let format = HeartRateLineFormat(configuration: text) else {
            throw .unknownFormat(text)
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
        guard let driver = SensorDriver(rawValue: parts[0]) else { throw .unknownDriver(parts[0]) }
        self.init(driver: driver, device: parts.count > 1 ? parts[1] : nil)
        if let problem = problems().first { throw problem }
    }

    public static let defaultANTDevice = "/dev/ant0"

    /// What is wrong, each with the key it is about.
    public func problems() -> [SensorSettingsError] {
        var found: [SensorSettingsError] = []
        if let device, device.isEmpty { found.append(.emptyDevice) }
        switch driver {
        case .serial where device == nil: found.append(.portNeeded)
        case .ant: found += straps.filter { UInt16($0).map { $0 > 0 } != true }.map(SensorSettingsError.notAnANTDeviceNumber)
        case .ble:
            if let device, !device.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) { found.append(.notAnAdapter(device)) }
        case .simulated:
            if device != nil { found.append(.deviceForSimulated) }
            if !(1...100).contains(people) { found.append(.peopleOutOfRange(people)) }
        case .serial: break
        }
        if let baudRate, baudRate <= 0 { found.append(.baudNotPositive(baudRate)) }
        return found
    }
}

/// What is wrong with a sensor's settings: each case with the key it concerns (``key``) and
/// what a person is told (``problem``).
public enum SensorSettingsError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `driver` names no driver.
    case unknownDriver(String)
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
        case .unknownDriver(let name):
            "\(name.debugDescription) is not a sensor driver; use one of \(SensorDriver.allCases.map(\.rawValue).joined(separator: ", "))"
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

    public var description: String { "\(key): \(problem)" }
}

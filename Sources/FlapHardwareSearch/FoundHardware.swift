/// A serial port as a search found it: its stable name, the device it leads to, whether another
/// program holds it, and what answered on it.
public struct FoundSerialPort: Sendable, Equatable, Encodable {
    /// The name that survives a reboot and a replug (`/dev/serial/by-id/usb-…`, `/dev/serial0`).
    public var path: String
    /// The device it is now (`/dev/ttyUSB0`).
    public var device: String
    /// Who holds it open, when someone does: it was left alone.
    public var heldBy: String?
    /// What answered, when it was asked (nil: not asked).
    public var answered: SerialAnswer?

    /// A port by its lasting name and its device, held or not, asked or not.
    public init(path: String, device: String, heldBy: String? = nil, answered: SerialAnswer? = nil) {
        self.path = path
        self.device = device
        self.heldBy = heldBy
        self.answered = answered
    }
}

/// What answered on a serial port when each driver's greeting was tried.
public enum SerialAnswer: Sendable, Equatable {
    /// A Chainlink controller (scottbez1/splitflap): its module count when it said it, and its
    /// drum (the firmware's flap characters) when its general state came.
    case chainlink(modules: Int?, drum: String?)
    /// RS-485 split-flap modules: each one that answered `d` or `v` by its ID, and the serial
    /// numbers of the Universal Firmware modules that announced themselves with no ID yet.
    case rs485(modules: [RS485ModuleFound], unnumbered: [String] = [])
    /// Nothing any driver knows.
    case nothing
}

/// One RS-485 module as its answers describe it: its `d` (the dump, both firmwares) and its
/// `v` (Universal Firmware only).
public struct RS485ModuleFound: Sendable, Equatable, Encodable {
    /// Its ID on the bus.
    public var id: Int
    /// The steps of its revolution (nil: it did not answer `d`).
    public var stepsPerRevolution: Int?
    /// The steps from its magnet to flap 0.
    public var offset: Int?
    /// How many flaps have a position of their own stored.
    public var storedFlaps: Int?
    /// `"universal"` for a module that answered `v`, `"v7"` for one that answered only `d`.
    public var firmware: String
    /// Universal Firmware's version number.
    public var version: Int?
    /// Its serial number, when its firmware says it.
    public var serial: String?
    /// Its own flaps in order, one character each, as Universal Firmware v31 says them (`A`).
    public var flaps: String?

    /// A module as its dump says.
    public init(
        id: Int, stepsPerRevolution: Int?, offset: Int?, storedFlaps: Int?, firmware: String = "v7", version: Int? = nil, serial: String? = nil
    ) {
        self.id = id
        self.stepsPerRevolution = stepsPerRevolution
        self.offset = offset
        self.storedFlaps = storedFlaps
        self.firmware = firmware
        self.version = version
        self.serial = serial
    }
}

extension SerialAnswer: Encodable {
    private enum Keys: String, CodingKey { case driver, modules, drum, unnumbered }

    /// `{"driver": "rs485" | "chainlink" | null, …}`: the driver's name as flapd.toml spells it.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        switch self {
        case .chainlink(let modules, let drum):
            try container.encode("chainlink", forKey: .driver)
            try container.encodeIfPresent(modules, forKey: .modules)
            try container.encodeIfPresent(drum, forKey: .drum)
        case .rs485(let modules, let unnumbered):
            try container.encode("rs485", forKey: .driver)
            try container.encode(modules, forKey: .modules)
            try container.encode(unnumbered, forKey: .unnumbered)
        case .nothing:
            try container.encodeNil(forKey: .driver)
        }
    }
}

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
    /// RS-485 split-flap modules answering `d`: each one's ID, steps a revolution, and how many
    /// flaps have a stored position.
    case rs485(modules: [RS485ModuleFound])
    /// Nothing any driver knows.
    case nothing
}

/// One RS-485 module as its `d` answer describes it.
public struct RS485ModuleFound: Sendable, Equatable, Encodable {
    /// Its ID on the bus.
    public var id: Int
    /// The steps of its revolution.
    public var stepsPerRevolution: Int
    /// The steps from its magnet to flap 0.
    public var offset: Int
    /// How many flaps have a position of their own stored.
    public var storedFlaps: Int

    /// A module as its dump says.
    public init(id: Int, stepsPerRevolution: Int, offset: Int, storedFlaps: Int) {
        self.id = id
        self.stepsPerRevolution = stepsPerRevolution
        self.offset = offset
        self.storedFlaps = storedFlaps
    }
}

extension SerialAnswer: Encodable {
    private enum Keys: String, CodingKey { case driver, modules, drum }

    /// `{"driver": "rs485" | "chainlink" | null, …}`: the driver's name as flapd.toml spells it.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        switch self {
        case .chainlink(let modules, let drum):
            try container.encode("chainlink", forKey: .driver)
            try container.encodeIfPresent(modules, forKey: .modules)
            try container.encodeIfPresent(drum, forKey: .drum)
        case .rs485(let modules):
            try container.encode("rs485", forKey: .driver)
            try container.encode(modules, forKey: .modules)
        case .nothing:
            try container.encodeNil(forKey: .driver)
        }
    }
}

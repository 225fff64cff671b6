import FlapHardware

/// One SBB/annax split-flap module as its firmware behaves on the bus (adfinis/sbb-fallblatt's
/// protocol): it reads a frame only after a BREAK (`FF`, command, address, values), turns one
/// way a blade at a time, and answers `D0`, `DF`, `D4` and `DD` with raw bytes.
public struct SimulatedSBBModule: Sendable {
    /// Its address on the bus (0 to 255).
    public private(set) var address: Int
    /// Its serial number, as `DF` tells it.
    public let serial: UInt32
    /// Its blade set's type, as `DD` tells it (1 hours, 2 minutes, …).
    public let type: Int
    /// Its blades.
    public let blades: Int
    /// The blade it shows now (as `D0` tells it, even while it turns).
    public private(set) var position = 0
    /// The blade it turns to.
    public private(set) var target = 0
    /// Every blade it landed on, and when (time since the bus started).
    public private(set) var landings: [(blade: Int, at: Duration)] = []
    /// Blades it turns past its target before it stops: a module with a worn catch (0: none).
    public var overshoot = 0
    /// Its firmware's version, as `D4` tells it.
    public static let version = 0x0102
    /// A blade's fall, unless the module is made with another.
    public static let defaultBladeTime = Duration.milliseconds(100)
    /// A blade's fall.
    public let bladeTime: Duration
    /// How long after a question's last byte it answers.
    public static let answerDelay = Duration.milliseconds(3)

    private var frame: [UInt8] = []
    /// Whether a BREAK came since the last frame began.
    private var armed = false
    private var nextBlade: Duration?

    /// A module at `address` with `blades` blades, showing blade 0, a blade falling each `bladeTime`.
    public init(address: Int, serial: UInt32, type: Int = 0, blades: Int, bladeTime: Duration = defaultBladeTime) {
        self.bladeTime = bladeTime
        self.address = address
        self.serial = serial
        self.type = type
        self.blades = blades
    }

    /// What a frame made it do: bytes to answer with, if any.
    public struct Effect: Sendable {
        /// Its answer.
        public var answer: [UInt8]?
    }

    /// A BREAK ended: what follows is a new frame.
    mutating func breakEnded() {
        frame.removeAll()
        armed = true
    }

    /// Takes `byte`, arrived at `time`; an answered question is answered once its address byte
    /// has come, a command with a value once the value has.
    mutating func receive(_ byte: UInt8, at time: Duration) -> Effect {
        settle(by: time)
        guard armed else { return Effect() }
        frame.append(byte)
        guard frame.first == 0xFF else {
            armed = false
            return Effect()
        }
        guard frame.count >= 3 else { return Effect() }
        let (command, addressed) = (frame[1], Int(frame[2]))
        switch command {
        case 0xC0:
            // Each value after the address goes to the next module: FF C0 05 a b gives 05 a, 06 b.
            guard frame.count >= 4 else { return Effect() }
            let offset = address - addressed
            if offset >= 0, frame.count - 4 == offset, Int(byte) < blades { turn(to: Int(byte), at: time) }
            return Effect()
        case 0xCE:
            guard frame.count == 4 else { return Effect() }
            if addressed == address { address = Int(byte) }
            armed = false
            return Effect()
        default:
            guard frame.count == 3 else { return Effect() }
            armed = false
            guard addressed == address else { return Effect() }
            switch command {
            case 0xD0: return Effect(answer: [UInt8(position)])
            case 0xDF: return Effect(answer: [UInt8(serial & 0xFF), UInt8(serial >> 8 & 0xFF), UInt8(serial >> 16 & 0xFF), UInt8(serial >> 24)])
            case 0xD4: return Effect(answer: [UInt8(Self.version >> 8), UInt8(Self.version & 0xFF)])
            case 0xDD: return Effect(answer: [UInt8(type)])
            case 0xC5: turn(to: 0, at: time)
            case 0xC6: turn(to: (target + 1) % blades, at: time)
            default: break
            }
            return Effect()
        }
    }

    /// Ends the blades' falls due by `time`.
    mutating func settle(by time: Duration) {
        while let due = nextBlade, due <= time {
            position = (position + 1) % blades
            landings.append((position, due))
            nextBlade = position == (target + overshoot) % blades ? nil : due + bladeTime
        }
    }

    /// When its turn ends, while it turns.
    public var busyUntil: Duration? {
        guard let nextBlade else { return nil }
        let left = ((target + overshoot) % blades - position + blades) % blades
        return nextBlade + bladeTime * (left - 1)
    }

    private mutating func turn(to blade: Int, at time: Duration) {
        target = blade
        guard (blade + overshoot) % blades != position || nextBlade != nil else { return }
        if nextBlade == nil { nextBlade = time + bladeTime }
    }
}

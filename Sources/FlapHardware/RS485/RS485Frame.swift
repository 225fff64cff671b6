/// Who a frame is for: one module by its ID (1 to 999), or every module on the bus.
public enum RS485Address: Sendable, Equatable, CustomStringConvertible {
    case module(Int)
    case all

    /// `05`, `123` or `*`: an ID under 100 in two digits, which firmware v6 (exactly two) and v7
    /// (one to three) both read.
    public var description: String {
        switch self {
        case .all: "*"
        case .module(let id) where id < 10: "0\(id)"
        case .module(let id): "\(id)"
        }
    }
}

/// What the RS-485 firmware (v7) is told, as `m<ID><command>\n`.
public enum RS485Command: Sendable, Equatable {
    /// `-C`: turn forward to the flap showing byte C.
    case show(UInt8)
    /// `h`: find home (the blank flap).
    case home
    /// `c`: measure the steps of a revolution, answer `m<ID>:<steps>`, then home.
    case calibrate
    /// `oN`: the steps from the magnet to flap 0.
    case offset(Int)
    /// `tN`: the steps of a revolution.
    case stepsPerRevolution(Int)
    /// `sN`: turn N steps on and add them to the offset.
    case nudge(Int)
    /// `gN`: go to raw step N.
    case goToStep(Int)
    /// `wI:P`: flap I shows at step P.
    case storeFlap(Int, step: Int)
    /// `iN`: the module's new ID.
    case setID(Int)
    /// `a1` / `a0`: home at power-up, or not.
    case autoHome(Bool)
    /// `d`: answer `m<ID>d:<offset>:<steps>:<i>=<pos>,...`.
    case dump
    /// `v`, or `v<lo>-<hi>` broadcast: Universal Firmware's version and serial number, each ID
    /// of the range answering in its turn.
    case version(ids: ClosedRange<Int>?)
    /// `A`: Universal Firmware's whole state, its flaps with it.
    case about
    /// `e`: forget the stored positions.
    case erase
    /// `T`: Universal Firmware's test of the Hall sensor over one turn.
    case hallTest
    /// `Q`: Universal Firmware's health now (its resets, supply and memory), without moving.
    case diagnostics
    /// `N<count>:<flaps>`: Universal Firmware's flaps for this module, in order as the reel
    /// names them (1 to 64; a v7 module ignores it).
    case flaps([UInt8])
    /// `M<n>`: Universal Firmware's test of the motor over `turns` turns (5 to 20; nil: the
    /// firmware's own count), about 4 s a turn.
    case mechanicalTest(turns: Int?)

    /// The command's letters after the ID.
    var text: String {
        switch self {
        case .show(let byte): "-" + String(UnicodeScalar(byte))
        case .home: "h"
        case .calibrate: "c"
        case .offset(let steps): "o\(steps)"
        case .stepsPerRevolution(let steps): "t\(steps)"
        case .nudge(let steps): "s\(steps)"
        case .goToStep(let step): "g\(step)"
        case .storeFlap(let flap, let step): "w\(flap):\(step)"
        case .setID(let id): "i\(id)"
        case .autoHome(let on): on ? "a1" : "a0"
        case .dump: "d"
        case .version(let ids?): "v\(ids.lowerBound)-\(ids.upperBound)"
        case .version(nil): "v"
        case .about: "A"
        case .erase: "e"
        case .hallTest: "T"
        case .diagnostics: "Q"
        case .flaps(let bytes): "N\(bytes.count):" + String(decoding: bytes, as: UTF8.self)
        case .mechanicalTest(let turns?): "M\(turns)"
        case .mechanicalTest(nil): "M"
        }
    }

    /// The turns a motor test may be asked for.
    public static let testTurns = 5...20

    /// At most how many turns it makes before it answers (or rests): three to measure a
    /// revolution, one to test the Hall sensor, a motor test's turns and the 1.1 it starts with.
    public var turns: Int {
        switch self {
        case .calibrate: 3
        case .hallTest: 1
        case .mechanicalTest(let turns): (turns ?? Self.testTurns.lowerBound) + 2
        default: 0
        }
    }

    /// Whether Universal Firmware answers it the moment it reads the command byte (`d`, and `v`
    /// and `A` sent to one module).
    public var isAnsweredAtOnce: Bool {
        switch self {
        case .dump, .version(nil), .about: true
        default: false
        }
    }

    /// Whether the firmware answers it on the bus.
    public var isAnswered: Bool {
        switch self {
        case .calibrate, .dump, .version, .about, .hallTest, .diagnostics, .mechanicalTest: true
        default: false
        }
    }
}

/// Frames as they go on the bus.
public enum RS485Frame {
    /// `\nm05-A\n`: the command for `address`. The leading newline ends whatever partial frame a
    /// module kept while it turned (its firmware buffers what arrives then, and drops what does
    /// not fit), so the frame is always read from its start.
    public static func encode(_ command: RS485Command, to address: RS485Address) -> [UInt8] {
        Array("\nm\(address)\(command.text)\n".utf8)
    }

    /// `\nm05d`: a command Universal Firmware answers as soon as it reads the command byte, with
    /// no newline after it, which would still be on the bus as the module's answer begins and
    /// garble its first byte (the SplitFlapGateway sends these so too).
    public static func encodeAnsweredAtOnce(_ command: RS485Command, to address: RS485Address) -> [UInt8] {
        Array("\nm\(address)\(command.text)".utf8)
    }

    /// `\nmXI<serial>:<id>\n`: the module with that serial number (Universal Firmware) takes the
    /// ID, whatever ID it had, and says so (`mXack:<serial>:<id>`).
    public static func encodeNumbering(serial: String, id: Int) -> [UInt8] {
        Array("\nmXI\(serial):\(id)\n".utf8)
    }

    /// How long `bytes` take on the bus at `baudRate`, 10 bits a byte (8N1), rounded up to the
    /// microsecond: a frame is never thought across before its last bit is.
    public static func airtime(of bytes: Int, baudRate: Int = RS485Frame.baudRate) -> Duration {
        .microseconds((Int64(bytes) * 10_000_000 + Int64(baudRate) - 1) / Int64(baudRate))
    }

    /// The bus's speed.
    public static let baudRate = 9600

    /// The longest show frame's time on the bus (a three-digit ID), which the planner spaces
    /// the modules' starts by.
    public static let showInterval = airtime(of: encode(.show(UInt8(ascii: "A")), to: .module(999)).count)
}

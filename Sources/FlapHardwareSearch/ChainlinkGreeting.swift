import FlapHardware
import FoundationEssentials

/// What a Chainlink controller says when asked, read from whatever bytes come back: its text
/// mode's lines (`{"type":"init", "num_modules":N}` after a reset, `{"type":"no_op"}` for `#`)
/// and, once a `0x00` has switched it to frames, its general state (the drum) and its state (one
/// entry a module). Anything else is ignored; at most ``budget`` bytes are read.
public struct ChainlinkGreeting: Sendable {
    /// The most bytes read: a controller's answers to one request are a few hundred.
    public static let budget = 16 * 1024
    /// The longest text line taken; a longer one is dropped.
    static let longestLine = 256

    /// Whether anything only a Chainlink controller says has come.
    public private(set) var recognised = false
    /// Its module count, once said.
    public private(set) var modules: Int?
    /// Its drum as the firmware names the flaps, once said.
    public private(set) var drum: String?
    /// Bytes read so far.
    public private(set) var read = 0

    private var line: [UInt8] = []
    private var frames = ChainlinkFrameSplitter(limit: 2048)

    /// Nothing read yet.
    public init() {}

    /// Whether there is nothing more worth waiting for, or no more will be read.
    public var isDone: Bool { (modules != nil && drum != nil) || read >= Self.budget }

    /// Takes the next bytes from the port.
    public mutating func take(_ bytes: some Collection<UInt8>) {
        let room = Self.budget - read
        guard room > 0 else { return }
        let taken = Array(bytes.prefix(room))
        read += taken.count
        for frame in frames.frames(after: taken) { heard(frame) }
        for byte in taken where byte != 0 {
            if byte == UInt8(ascii: "\n") {
                heard(line: line)
                line.removeAll(keepingCapacity: true)
            } else if line.count <= Self.longestLine {
                line.append(byte)
            }
        }
    }

    private struct TextLine: Decodable {
        var type: String
        var num_modules: Int?
    }

    private mutating func heard(line: [UInt8]) {
        guard line.count <= Self.longestLine, line.first == UInt8(ascii: "{"),
            let said = try? JSONDecoder().decode(TextLine.self, from: Data(line))
        else { return }
        switch said.type {
        case "init":
            recognised = true
            if let count = said.num_modules, (1...1024).contains(count) { modules = count }
        case "no_op": recognised = true
        default: break
        }
    }

    private mutating func heard(_ frame: [UInt8]) {
        switch try? ChainlinkFrame.decode(frame) {
        case .general(let general):
            recognised = true
            if !general.flapCharacterSet.isEmpty, general.flapCharacterSet.count <= 128 {
                drum = String(decoding: general.flapCharacterSet, as: UTF8.self)
            }
        case .state(let state):
            recognised = true
            if (1...1024).contains(state.modules.count) { modules = state.modules.count }
        case .ack, .log:
            recognised = true
        case .other, nil:
            break
        }
    }
}

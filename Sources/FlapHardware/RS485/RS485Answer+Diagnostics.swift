/// What Universal Firmware's Hall sensor test (`T`) found over one turn.
public struct HallTest: Sendable, Equatable, Codable {
    /// 0 fine, 1 always on, 2 never on, 3 more than one magnet, 4 wired the wrong way round.
    public var code: Int
    /// How many times the magnet came (once a turn when well).
    public var edges: Int
    /// How many of the steps read the magnet.
    public var activeSamples: Int
    /// How many times the magnet went (from v28; once a turn when well).
    public var fallingEdges: Int?

    /// A test's findings.
    public init(code: Int, edges: Int, activeSamples: Int, fallingEdges: Int? = nil) {
        self.code = code
        self.edges = edges
        self.activeSamples = activeSamples
        self.fallingEdges = fallingEdges
    }
}

/// Universal Firmware's health now (`Q`), without moving.
public struct ModuleDiagnostics: Sendable, Equatable, Codable {
    /// Why it last started: bits 1 power on, 2 a brown-out, 4 its reset pin, 8 its watchdog, 16 software.
    public var resetCause: Int
    /// How many times it has started (counting to 255, then again from 0).
    public var boots: Int
    /// Its supply, in millivolts.
    public var millivolts: Int
    /// Whether its memory passed its write-and-read check.
    public var memoryOK: Bool
    /// The flap it shows; nil when it does not know (it needs homing).
    public var flap: Int?

    /// A snapshot.
    public init(resetCause: Int, boots: Int, millivolts: Int, memoryOK: Bool, flap: Int?) {
        self.resetCause = resetCause
        self.boots = boots
        self.millivolts = millivolts
        self.memoryOK = memoryOK
        self.flap = flap
    }
}

/// What Universal Firmware's motor test (`M`) measured over several turns.
public struct MechanicalTest: Sendable, Equatable, Codable {
    /// 0 fine, 1 the turns differ by more than 5 %, 2 no motion seen.
    public var code: Int
    /// The fewest steps a turn measured (0 when nothing moved).
    public var fewest: Int
    /// The most steps a turn measured (0 when nothing moved).
    public var most: Int
    /// (most − fewest) ÷ their average, in tenths of a percent.
    public var spreadTenths: Int
    /// How many steps read the magnet while it drove its first 1.1 turns.
    public var gateActive: Int
    /// How many steps those 1.1 turns were.
    public var gateSpan: Int
    /// Each turn's steps, in order (from v28).
    public var turns: [Int]

    /// A test's measurements.
    public init(code: Int, fewest: Int, most: Int, spreadTenths: Int, gateActive: Int, gateSpan: Int, turns: [Int] = []) {
        self.code = code
        self.fewest = fewest
        self.most = most
        self.spreadTenths = spreadTenths
        self.gateActive = gateActive
        self.gateSpan = gateSpan
        self.turns = turns
    }
}

extension RS485AnswerReader {
    /// `T`, `Q` or `M` after the ID: a test's answer; nil for another letter.
    static func diagnosis(id: Int, _ cursor: inout Cursor) throws(RS485AnswerError) -> RS485Answer? {
        if cursor.take("T") {
            let numbers = try fields(&cursor, ["its code", "the magnet's comings", "the steps that read it"], optional: "the magnet's goings")
            try cursor.end()
            return .hall(id: id, HallTest(code: numbers[0], edges: numbers[1], activeSamples: numbers[2], fallingEdges: numbers.dropFirst(3).first))
        }
        if cursor.take("Q") {
            let numbers = try fields(
                &cursor, ["why it last started", "how often it started", "its supply in millivolts", "its memory's check", "its flap"])
            try cursor.end()
            let diagnostics = ModuleDiagnostics(
                resetCause: numbers[0], boots: numbers[1], millivolts: numbers[2], memoryOK: numbers[3] == 1, flap: numbers[4] < 0 ? nil : numbers[4])
            return .diagnostics(id: id, diagnostics)
        }
        if cursor.take("M") {
            let names = ["its code", "the fewest steps a turn", "the most", "their spread", "the steps that read the magnet", "the steps driven"]
            let numbers = try fields(&cursor, names, optional: "the magnet's width")
            var turns: [Int] = []
            // From v28 each turn's steps follow the magnet's width.
            if numbers.count > names.count, cursor.take(":"), !cursor.atEnd {
                repeat { turns.append(try cursor.number("a turn's steps")) } while cursor.take(",")
            }
            try cursor.end()
            let test = MechanicalTest(
                code: numbers[0], fewest: numbers[1], most: numbers[2], spreadTenths: numbers[3], gateActive: numbers[4], gateSpan: numbers[5],
                turns: turns)
            return .mechanical(id: id, test)
        }
        return nil
    }

    /// A number after a `:` for each of `names`, then one for `optional` if a `:` and a number follow.
    private static func fields(_ cursor: inout Cursor, _ names: [String], optional: String? = nil) throws(RS485AnswerError) -> [Int] {
        var numbers: [Int] = []
        for name in names {
            try cursor.expect(":", "\(name) follows a :")
            numbers.append(try cursor.signedNumber(name))
        }
        if let optional {
            var ahead = cursor
            if ahead.take(":"), let number = try? ahead.signedNumber(optional) {
                cursor = ahead
                numbers.append(number)
            }
        }
        return numbers
    }
}

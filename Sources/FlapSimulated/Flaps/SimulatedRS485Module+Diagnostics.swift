import FlapHardware

/// Universal Firmware's tests of itself, as its modules answer them: the Hall sensor over a turn
/// (`T`), its health now (`Q`), and its motor over several turns (`M`); each finds what a test
/// injected as the module's ``Faults``.
extension SimulatedRS485Module {
    /// What is wrong with a module, for its tests to find.
    public struct Faults: Sendable, Equatable {
        /// The Hall sensor test's code: 0 well, 1 always on, 2 never on, 3 more than one magnet,
        /// 4 the wrong way round.
        public var hall = 0
        /// Its supply, in millivolts.
        public var millivolts = 5_020
        /// Why it last started: 1 power on, 2 a brown-out, 8 its watchdog.
        public var resetCause = 1
        /// How many times it has started.
        public var starts = 1
        /// How many steps its worst turn falls short by (0: it misses none).
        public var missedSteps = 0
        /// How many of the next frames that show a flap it never reads (lost on the way).
        public var losesShows = 0

        /// A module with nothing wrong.
        public init() {}
    }

    /// How many steps the magnet covers.
    static let magnetWidth = 168

    /// `T`, `Q` or `M[n]` sent to it: nothing on v7, which knows none of them.
    mutating func diagnose(_ command: UInt8, _ rest: [UInt8], at time: Duration) -> Effect {
        guard serial != nil else { return Effect() }
        let address = RS485Address.module(id)
        switch command {
        case UInt8(ascii: "T"):
            var effect = turnSteps(stepsPerRevolution, at: time, landing: false)
            effect.answer = Array("m\(address)T:\(hallFindings)\n".utf8)
            return effect
        case UInt8(ascii: "Q"):
            let answer = "m\(address)Q:\(faults.resetCause):\(faults.starts):\(faults.millivolts):1:\(flap ?? -1)\n"
            return Effect(answer: Array(answer.utf8))
        default:
            let asked = Int(String(decoding: rest, as: UTF8.self)) ?? RS485Command.testTurns.lowerBound
            let turns = min(max(asked, RS485Command.testTurns.lowerBound), RS485Command.testTurns.upperBound)
            let gate = stepsPerRevolution * 11 / 10
            var effect = turnSteps(gate + turns * stepsPerRevolution, at: time, landing: false)
            effect.answer = Array("m\(address)M:\(motorFindings(turns: turns, gate: gate))\n".utf8)
            return effect
        }
    }

    /// `<code>:<edges>:<active steps>:<falling edges>` for the Hall sensor's fault.
    private var hallFindings: String {
        let width = Self.magnetWidth
        switch faults.hall {
        case 1: return "1:0:\(stepsPerRevolution):0"
        case 2: return "2:0:0:0"
        case 3: return "3:3:\(width * 2):3"
        case 4: return "4:1:\(stepsPerRevolution - width):1"
        default: return "0:1:\(width):1"
        }
    }

    /// `<code>:<min>:<max>:<spread>:<gate active>:<gate span>:<magnet width>:<r1>,…` for `turns`.
    private func motorFindings(turns: Int, gate: Int) -> String {
        guard faults.hall != 2 else { return "2:0:0:0:0:\(gate):0:" }
        // The worst turn is the last: a slip that grows as the motor warms.
        let measured = (0..<turns).map { stepsPerRevolution - faults.missedSteps * $0 / max(turns - 1, 1) }
        let fewest = measured.min() ?? 0, most = measured.max() ?? 0
        let average = measured.reduce(0, +) / max(measured.count, 1)
        let spread = average == 0 ? 0 : (most - fewest) * 1000 / average
        let code = spread > 50 ? 1 : 0
        let list = measured.map(String.init).joined(separator: ",")
        return "\(code):\(fewest):\(most):\(spread):\(Self.magnetWidth):\(gate):\(Self.magnetWidth):\(list)"
    }
}

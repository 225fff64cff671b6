import FlapHardware
import FlapHeartRate
import FlapPrimitives

/// A recorded heart-rate trace played back as one strap: CSV lines `seconds,bpm[,rr…]` (RR in
/// 1/1024 s), seconds from the trace's start and rising; `#` starts a comment. Each reading is
/// emitted at its time after `run` begins; with `loops`, the trace starts over at its end.
public struct TraceHeartRateSensor<C: Clock>: HeartRateSensor where C.Duration == Duration, C.Instant: Sendable {
    /// Its name.
    public let name: String
    /// Its one strap.
    public let strap: StrapIdentity
    let readings: [(at: Duration, bpm: Int, rr: [UInt16])]
    private let loops: Bool
    private let clock: C

    /// A trace that cannot be read: the line, the column (from 1) and what is wrong.
    public struct TraceError: Error, Equatable, CustomStringConvertible {
        /// The trace's line, from 1.
        public var line: Int
        /// The column, from 1.
        public var column: Int
        /// What is wrong.
        public var problem: String
        /// Where and what.
        public var description: String { "trace line \(line), column \(column): \(problem)" }

        /// A problem at `line`, `column`.
        public init(line: Int, column: Int, problem: String) {
            self.line = line
            self.column = column
            self.problem = problem
        }
    }

    /// The latest time a trace's reading may have, in seconds.
    public static var longestTrace: Double { 86_400 }

    /// Reads the whole trace `text` now, so a bad file is refused before anything runs.
    public init(named strapName: String, text: String, loops: Bool = false, clock: C) throws(TraceError) {
        name = "trace \(strapName)"
        strap = StrapIdentity(driver: "simulated", address: strapName)
        self.loops = loops
        self.clock = clock
        var readings: [(at: Duration, bpm: Int, rr: [UInt16])] = []
        for (index, line) in LineBreaks.lines(of: text).enumerated() {
            if line.allSatisfy({ $0 == " " }) || line.first == "#" { continue }
            var column = 1
            var fields: [(Double, Int)] = []
            for field in line.split(separator: ",", omittingEmptySubsequences: false) {
                let trimmed = field.trimmingSpaces
                guard let value = Double(trimmed), value.isFinite else {
                    throw TraceError(line: index + 1, column: column, problem: trimmed.isEmpty ? "an empty field" : "\"\(trimmed)\" is not a number")
                }
                fields.append((value, column))
                column += field.count + 1
            }
            guard fields.count >= 2 else { throw TraceError(line: index + 1, column: column - 1, problem: "expected seconds,bpm[,rr…]") }
            let (seconds, secondsColumn) = fields[0]
            // A day is longer than any session a trace replays; past it, milliseconds would not fit.
            guard seconds <= Self.longestTrace else {
                throw TraceError(line: index + 1, column: secondsColumn, problem: "the time \(seconds) s is past a day (\(Int(Self.longestTrace)) s)")
            }
            guard seconds >= 0, seconds >= (readings.last.map { Double($0.at.components.seconds) + Double($0.at.components.attoseconds) / 1e18 } ?? 0)
            else {
                throw TraceError(line: index + 1, column: secondsColumn, problem: "the time \(seconds) s goes back (times must rise from 0)")
            }
            let (bpm, bpmColumn) = fields[1]
            guard let whole = Int(exactly: bpm), (0...300).contains(whole) else {
                throw TraceError(line: index + 1, column: bpmColumn, problem: "\(bpm) is not a heart rate (a whole number of BPM, 0 to 300)")
            }
            var rr: [UInt16] = []
            for (value, rrColumn) in fields.dropFirst(2) {
                guard let interval = UInt16(exactly: value), interval > 0 else {
                    throw TraceError(line: index + 1, column: rrColumn, problem: "\(value) is not an RR interval (1/1024 s, 1 to 65535)")
                }
                rr.append(interval)
            }
            readings.append((.milliseconds(Int64((seconds * 1000).rounded())), whole, rr))
        }
        guard let last = readings.last else { throw TraceError(line: 1, column: 1, problem: "the trace has no readings") }
        if loops, last.at == .zero { throw TraceError(line: 1, column: 1, problem: "a looping trace must last longer than an instant") }
        self.readings = readings
    }

    /// Plays the trace's readings at their times (again and again when it loops), until cancelled.
    public func run(_ emit: @escaping @Sendable (HeartRateEvent<C.Instant>) -> Void) async {
        emit(.status(HeartRateStatus(strap: nil, .searching)))
        emit(.status(HeartRateStatus(strap: nil, .connected)))
        var states = StrapStates<C.Instant>()
        var start = clock.now
        repeat {
            for reading in readings {
                guard (try? await clock.sleep(until: start.advanced(by: reading.at), tolerance: nil)) != nil else { return }
                for status in states.silent(now: clock.now) { emit(.status(status)) }
                guard reading.bpm > 0 else { continue }  // a gap in the recording
                let sample = HeartRateSample(strap: strap, bpm: reading.bpm, contact: .unknown, rrIntervals: reading.rr, instant: clock.now)
                if let status = states.heard(sample) { emit(.status(status)) }
                emit(.sample(sample))
            }
            // The next lap starts a second after the last reading.
            start = start.advanced(by: (readings.last?.at ?? .zero) + .seconds(1))
        } while loops && !Task.isCancelled
        // A trace that has ended is a strap that stopped: it goes silent, then lost.
        while !Task.isCancelled {
            guard (try? await clock.sleep(for: .seconds(1), tolerance: nil)) != nil else { return }
            for status in states.silent(now: clock.now) { emit(.status(status)) }
        }
    }
}

extension Substring {
    var trimmingSpaces: Substring {
        var s = self
        while s.first == " " || s.first == "\t" { s.removeFirst() }
        while s.last == " " || s.last == "\t" { s.removeLast() }
        return s
    }
}

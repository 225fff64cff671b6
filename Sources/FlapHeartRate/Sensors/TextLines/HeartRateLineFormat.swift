import FlapHardware

/// How a serial pulse sensor writes its readings, one per line: `72`, `HR:72`, or
/// `{"bpm":72,"rr":[812]}` (RR in milliseconds).
public enum HeartRateLineFormat: Sendable, Equatable {
    /// Whichever of the forms below each line is.
    case automatic
    /// A bare number.
    case number
    /// A number after a fixed prefix (`HR:`); spaces around the number are allowed.
    case prefixed(String)
    /// A JSON object with `bpm` and optionally `rr` (milliseconds) and `contact` (true/false).
    case json

    /// `auto`, `number`, `json`, or `prefix:TEXT`; nil for anything else.
    public init?(configuration text: String) {
        switch text {
        case "auto": self = .automatic
        case "number": self = .number
        case "json": self = .json
        default:
            guard text.hasPrefix("prefix:"), text.count > 7 else { return nil }
            self = .prefixed(String(text.dropFirst(7)))
        }
    }

    /// What a line said.
    public struct Reading: Sendable, Equatable {
        /// Beats per minute.
        public var bpm: Int
        /// In 1/1024 s.
        public var rrIntervals: [UInt16] = []
        /// Whether it touches skin, when the line says.
        public var contact: SensorContact = .unknown
    }

    /// Beats per minute a line may carry; anything else is line noise or a sensor fault.
    public static let plausible = 20...300

    /// Reads one line (without its line ending). An error names the column (from 1) and the
    /// character that is wrong.
    public func read(_ line: String) throws(HeartRateDecodingError) -> Reading {
        // The line itself stays out of errors: they reach the log, and heart rates must not.
        let what = "heart-rate line"
        switch self {
        case .number:
            return try Self.number(line, from: 0, what: what)
        case .prefixed(let prefix):
            guard line.hasPrefix(prefix) else {
                let column = zip(line, prefix).prefix { $0 == $1 }.count
                throw HeartRateDecodingError(what, column: column + 1, "expected the prefix \"\(prefix)\"")
            }
            return try Self.number(line, from: prefix.count, what: what)
        case .json:
            return try Self.json(line, what: what)
        case .automatic:
            let trimmed = line.drop { $0 == " " }
            if trimmed.first == "{" { return try Self.json(line, what: what) }
            if trimmed.first?.isNumber == true { return try Self.number(line, from: 0, what: what) }
            guard let colon = line.firstIndex(of: ":") else {
                throw HeartRateDecodingError(what, column: 1, "not a number, a PREFIX:number or a JSON object")
            }
            return try Self.number(line, from: line.distance(from: line.startIndex, to: colon) + 1, what: what)
        }
    }

    private static func number(_ line: String, from start: Int, what: String) throws(HeartRateDecodingError) -> Reading {
        let characters = Array(line)
        var i = start
        while i < characters.count, characters[i] == " " { i += 1 }
        let digitsStart = i
        while i < characters.count, characters[i].isASCII, characters[i].isNumber { i += 1 }
        guard i > digitsStart else {
            throw HeartRateDecodingError(
                what, column: i + 1, i < characters.count ? "expected a number, found \"\(characters[i])\"" : "expected a number, the line ends")
        }
        let digits = String(characters[digitsStart..<i])
        while i < characters.count, characters[i] == " " || characters[i] == "\t" { i += 1 }
        guard i == characters.count else { throw HeartRateDecodingError(what, column: i + 1, "unexpected \"\(characters[i])\" after the number") }
        guard let bpm = Int(digits), plausible.contains(bpm) else {
            throw HeartRateDecodingError(
                what, column: digitsStart + 1, "\(digits) BPM is not a heart rate (\(plausible.lowerBound) to \(plausible.upperBound))")
        }
        return Reading(bpm: bpm)
    }

    private static func json(_ line: String, what: String) throws(HeartRateDecodingError) -> Reading {
        var parser = FlatJSONObject(line, what: what)
        let fields = try parser.parse()
        guard let bpmValue = fields["bpm"] else { throw HeartRateDecodingError(what, column: 1, "the object has no \"bpm\"") }
        guard case .number(let bpmNumber, let column) = bpmValue else {
            throw HeartRateDecodingError(what, column: bpmValue.column, "\"bpm\" is not a number")
        }
        guard let bpm = Int(exactly: bpmNumber), plausible.contains(bpm) else {
            throw HeartRateDecodingError(
                what, column: column, "\(bpmNumber) BPM is not a heart rate (\(plausible.lowerBound) to \(plausible.upperBound))")
        }
        var reading = Reading(bpm: bpm)
        if let rr = fields["rr"] {
            guard case .numbers(let values, let column) = rr else {
                throw HeartRateDecodingError(what, column: rr.column, "\"rr\" is not a list of numbers")
            }
            for value in values {
                guard value > 0, value < 3000 else {
                    throw HeartRateDecodingError(what, column: column, "an RR interval of \(value) ms is not a beat (1 to 2999 ms)")
                }
                reading.rrIntervals.append(UInt16((value * 1.024).rounded()))
            }
        }
        if let contact = fields["contact"] {
            guard case .bool(let touching, _) = contact else {
                throw HeartRateDecodingError(what, column: contact.column, "\"contact\" is not true or false")
            }
            reading.contact = touching ? .detected : .notDetected
        }
        return reading
    }
}

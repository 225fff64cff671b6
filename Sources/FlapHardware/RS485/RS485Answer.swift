/// What a module says on the bus: firmware v7 answers only `c` and `d`; Universal Firmware also
/// answers `v`, and a module of it with no ID yet announces its serial number.
public enum RS485Answer: Sendable, Equatable {
    /// `m<ID>:<steps>`: the revolution it measured.
    case revolution(id: Int, steps: Int)
    /// `m<ID>d:<offset>:<steps>:<i>=<pos>,...`: its stored calibration; flaps with no stored
    /// position are left out.
    case dump(id: Int, offset: Int, steps: Int, positions: [Int: Int])
    /// `m<ID>v:<version>:<ID>:<serial>`: Universal Firmware's version and the module's serial
    /// number (nil when an older version left it out).
    case version(id: Int, firmware: Int, serial: String?)
    /// `m<ID>A:<version>:<ID>:<serial>:<home offset>:<steps>:<auto-home>:<flap>:<map>:<count>:<flaps>`:
    /// Universal Firmware's whole state, with the module's own flaps in order (taken verbatim,
    /// `:` included); nil before v31, whose answer stops sooner.
    case about(id: Int, firmware: Int, serial: String, flaps: String?)
    /// `mXadv:<serial>`: a Universal Firmware module with no ID yet, every 10 to 15 s.
    case announcement(serial: String)
    /// `mXack:<serial>:<ID>` (or `mXack<serial>:<ID>`): a module took the ID it was given.
    case numbered(serial: String, id: Int)
    /// `m<ID>T:…`: Universal Firmware's test of its Hall sensor.
    case hall(id: Int, HallTest)
    /// `m<ID>Q:…`: Universal Firmware's health now.
    case diagnostics(id: Int, ModuleDiagnostics)
    /// `m<ID>M:…`: Universal Firmware's test of its motor.
    case mechanical(id: Int, MechanicalTest)
}

/// A line on the bus that is not an answer, with where it goes wrong.
public struct RS485AnswerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The line as received (printable ASCII, the rest escaped), at most its first 80 bytes.
    public var line: String
    /// 1-based: the byte where it stops being an answer.
    public var column: Int
    /// What is wrong there.
    public var problem: String

    /// The line, the column and the problem.
    public var description: String { "the bus said \(line.debugDescription): column \(column): \(problem)" }
}

/// Reads modules' answers from the bus's bytes, a line at a time. A line longer than
/// ``maximumLine`` is dropped when its end comes (a module's answers are far shorter), and a line
/// that is not an answer is an error naming the column; neither stops the reading.
public struct RS485AnswerReader: Sendable {
    /// The longest line taken: a dump of 100 stored flaps is about 1 000 bytes.
    public static let maximumLine = 2048
    private var line: [UInt8] = []
    private var overflowed = false

    /// A reader with nothing read yet.
    public init() {}

    /// The answers and errors the bytes complete, in order.
    public mutating func read(_ bytes: [UInt8]) -> [Result<RS485Answer, RS485AnswerError>] {
        var results: [Result<RS485Answer, RS485AnswerError>] = []
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                if overflowed {
                    results.append(
                        .failure(
                            RS485AnswerError(line: Self.shown(line), column: Self.maximumLine + 1, problem: "longer than \(Self.maximumLine) bytes")))
                } else if !line.isEmpty, line != [UInt8(ascii: "\r")] {
                    results.append(Result { () throws(RS485AnswerError) in try Self.parse(line) })
                }
                line.removeAll(keepingCapacity: true)
                overflowed = false
            } else if line.count < Self.maximumLine {
                line.append(byte)
            } else {
                overflowed = true
            }
        }
        return results
    }

    /// One line (without its newline) as an answer.
    public static func parse(_ line: [UInt8]) throws(RS485AnswerError) -> RS485Answer {
        var cursor = Cursor(bytes: line.last == UInt8(ascii: "\r") ? Array(line.dropLast()) : line)
        try cursor.expect("m", "an answer starts with m")
        if cursor.take("X") { return try bySerial(&cursor) }
        let id = try cursor.number("the module's ID", digits: 3)
        if cursor.take(":") {
            let steps = try cursor.number("the steps of a revolution")
            try cursor.end()
            return .revolution(id: id, steps: steps)
        }
        if cursor.take("v") {
            try cursor.expect(":", "a version goes on with :")
            let firmware = try cursor.number("the firmware's version")
            var serial: String?
            if cursor.take(":") {
                let again = cursor
                guard try cursor.number("the module's ID again", digits: 3) == id else {
                    throw again.failure("the ID differs from the one the answer began with")
                }
                try cursor.expect(":", "the ID is followed by : and the serial number")
                serial = try cursor.serial()
            }
            try cursor.end()
            return .version(id: id, firmware: firmware, serial: serial)
        }
        if cursor.take("A") { return try about(id: id, &cursor) }
        if let diagnosis = try diagnosis(id: id, &cursor) { return diagnosis }
        try cursor.expect("d", "after the ID comes : (a revolution), d (a dump), v (a version), A (its state), or T, Q or M (a test)")
        try cursor.expect(":", "a dump goes on with :")
        let offset = try cursor.number("the offset")
        try cursor.expect(":", "the offset is followed by :")
        let steps = try cursor.number("the steps of a revolution")
        var positions: [Int: Int] = [:]
        if cursor.take(":") {
            while !cursor.atEnd {
                let flap = try cursor.number("a flap's number")
                try cursor.expect("=", "a flap's number is followed by =")
                positions[flap] = try cursor.number("the flap's position")
                if !cursor.take(",") { break }
            }
        }
        try cursor.end()
        return .dump(id: id, offset: offset, steps: steps, positions: positions)
    }

    /// What follows `m<ID>A`: the version, the ID again and the serial number, four numbers and
    /// the map, then (v31) the flap count and that many flaps, the rest of the line.
    private static func about(id: Int, _ cursor: inout Cursor) throws(RS485AnswerError) -> RS485Answer {
        try cursor.expect(":", "its state goes on with :")
        let firmware = try cursor.number("the firmware's version")
        try cursor.expect(":", "the version is followed by : and the ID")
        let again = cursor
        guard try cursor.number("the module's ID again", digits: 3) == id else {
            throw again.failure("the ID differs from the one the answer began with")
        }
        try cursor.expect(":", "the ID is followed by : and the serial number")
        let serial = try cursor.serial()
        for field in ["the home offset", "the steps of a revolution", "whether it homes at power-up", "the flap it shows", "its map"] {
            guard cursor.take(":") else {
                try cursor.end()
                return .about(id: id, firmware: firmware, serial: serial, flaps: nil)
            }
            _ = try cursor.field(field)
        }
        guard cursor.take(":") else {
            try cursor.end()
            return .about(id: id, firmware: firmware, serial: serial, flaps: nil)
        }
        let count = try cursor.number("the flap count", digits: 3)
        try cursor.expect(":", "the flap count is followed by : and the flaps")
        let flaps = cursor.rest()
        guard flaps.count == count else {
            throw cursor.failure("the flap count says \(count), and \(flaps.count) flaps follow")
        }
        return .about(id: id, firmware: firmware, serial: serial, flaps: String(decoding: flaps, as: UTF8.self))
    }

    /// What follows `mX`: an announcement or an acknowledged ID.
    private static func bySerial(_ cursor: inout Cursor) throws(RS485AnswerError) -> RS485Answer {
        if cursor.take("a") {
            if cursor.take("d") {
                try cursor.expect("v", "mXad is followed by v")
                try cursor.expect(":", "an announcement goes on with :")
                let serial = try cursor.serial()
                try cursor.end()
                return .announcement(serial: serial)
            }
            try cursor.expect("c", "mXa is followed by dv (an announcement) or ck (an ID taken)")
            try cursor.expect("k", "mXac is followed by k")
            _ = cursor.take(":")
            let serial = try cursor.serial()
            try cursor.expect(":", "the serial number is followed by : and the ID")
            let id = try cursor.number("the ID taken", digits: 3)
            try cursor.end()
            return .numbered(serial: serial, id: id)
        }
        throw cursor.failure("mX is followed by adv (an announcement) or ack (an ID taken)")
    }

    /// Printable ASCII as it is, the rest as `\xNN`, at most 80 bytes.
    static func shown(_ bytes: [UInt8]) -> String {
        bytes.prefix(80).map { (0x20..<0x7f).contains($0) ? String(UnicodeScalar($0)) : "\\x" + String($0, radix: 16) }.joined()
    }

    struct Cursor {
        let bytes: [UInt8]
        var at = 0

        var atEnd: Bool { at == bytes.count }

        func failure(_ problem: String) -> RS485AnswerError {
            RS485AnswerError(line: RS485AnswerReader.shown(bytes), column: at + 1, problem: problem)
        }

        mutating func take(_ character: Unicode.Scalar) -> Bool {
            guard at < bytes.count, bytes[at] == UInt8(ascii: character) else { return false }
            at += 1
            return true
        }

        mutating func expect(_ character: Unicode.Scalar, _ problem: String) throws(RS485AnswerError) {
            guard take(character) else { throw failure(problem) }
        }

        /// `-` and a number, or a number.
        mutating func signedNumber(_ what: String) throws(RS485AnswerError) -> Int {
            take("-") ? -(try number(what)) : try number(what)
        }

        /// Up to `digits` decimal digits (at least one), as a number.
        mutating func number(_ what: String, digits: Int = 9) throws(RS485AnswerError) -> Int {
            var value = 0, count = 0
            while at < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[at]), count < digits {
                value = value * 10 + Int(bytes[at] - UInt8(ascii: "0"))
                at += 1
                count += 1
            }
            guard count > 0 else { throw failure("\(what) must be a number") }
            return value
        }

        /// A serial number: 1 to 32 hexadecimal digits, kept in capitals.
        mutating func serial() throws(RS485AnswerError) -> String {
            let start = at
            while at < bytes.count, at - start < 32, let _ = Int(String(UnicodeScalar(bytes[at])), radix: 16) { at += 1 }
            guard at > start else { throw failure("a serial number is hexadecimal digits") }
            return String(decoding: bytes[start..<at], as: UTF8.self).uppercased()
        }

        /// Bytes up to the next `:` or the end, at least one.
        mutating func field(_ what: String) throws(RS485AnswerError) -> ArraySlice<UInt8> {
            let start = at
            while at < bytes.count, bytes[at] != UInt8(ascii: ":") { at += 1 }
            guard at > start else { throw failure("\(what) is missing") }
            return bytes[start..<at]
        }

        /// Everything left.
        mutating func rest() -> ArraySlice<UInt8> {
            defer { at = bytes.count }
            return bytes[at...]
        }

        func end() throws(RS485AnswerError) {
            guard atEnd else { throw failure("nothing should follow") }
        }
    }
}

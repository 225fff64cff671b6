import FlapHardware

/// A reader for the one kind of JSON a serial pulse sensor sends: a flat object whose values are
/// numbers, lists of numbers or booleans. Hand-written so that an error can name the column of
/// the character at fault (Foundation's parser does not say where), and FlapHardware stays free
/// of Foundation.
struct FlatJSONObject {
    enum Value: Equatable {
        case number(Double, column: Int)
        case numbers([Double], column: Int)
        case bool(Bool, column: Int)
        case other(column: Int)

        var column: Int {
            switch self {
            case .number(_, let c), .numbers(_, let c), .bool(_, let c), .other(let c): c
            }
        }
    }

    private let characters: [Character]
    private let what: String
    private var i = 0

    init(_ line: String, what: String) {
        characters = Array(line)
        self.what = what
    }

    mutating func parse() throws(HeartRateDecodingError) -> [String: Value] {
        var fields: [String: Value] = [:]
        skipSpaces()
        try expect("{")
        skipSpaces()
        if peek == "}" {
            i += 1
        } else {
            while true {
                skipSpaces()
                let key = try string()
                skipSpaces()
                try expect(":")
                skipSpaces()
                fields[key] = try value()
                skipSpaces()
                if peek == "," { i += 1; continue }
                try expect("}")
                break
            }
        }
        skipSpaces()
        guard i == characters.count else { throw fail("unexpected \"\(characters[i])\" after the object") }
        return fields
    }

    private var peek: Character? { i < characters.count ? characters[i] : nil }

    private mutating func skipSpaces() { while let c = peek, c == " " || c == "\t" { i += 1 } }

    private func fail(_ problem: String) -> HeartRateDecodingError { HeartRateDecodingError(what, column: i + 1, problem) }

    private mutating func expect(_ c: Character) throws(HeartRateDecodingError) {
        guard let found = peek else { throw fail("expected \"\(c)\", the line ends") }
        guard found == c else { throw fail("expected \"\(c)\", found \"\(found)\"") }
        i += 1
    }

    private mutating func string() throws(HeartRateDecodingError) -> String {
        try expect("\"")
        var text = ""
        while let c = peek, c != "\"" {
            guard c != "\\" else { throw fail("escapes are not expected in a sensor's keys") }
            text.append(c)
            i += 1
        }
        try expect("\"")
        return text
    }

    private mutating func value() throws(HeartRateDecodingError) -> Value {
        let column = i + 1
        switch peek {
        case "[":
            i += 1
            var numbers: [Double] = []
            skipSpaces()
            if peek == "]" { i += 1; return .numbers([], column: column) }
            while true {
                skipSpaces()
                numbers.append(try number())
                skipSpaces()
                if peek == "," { i += 1; continue }
                try expect("]")
                return .numbers(numbers, column: column)
            }
        case "t", "f":
            for word in ["true", "false"] where characters[i...].starts(with: word) {
                i += word.count
                return .bool(word == "true", column: column)
            }
            throw fail("expected true or false")
        case "\"":
            _ = try string()
            return .other(column: column)
        case nil:
            throw fail("expected a value, the line ends")
        default:
            return .number(try number(), column: column)
        }
    }

    private mutating func number() throws(HeartRateDecodingError) -> Double {
        let start = i
        while let c = peek, c.isASCII, c.isNumber || c == "." || c == "-" || c == "e" || c == "E" || c == "+" { i += 1 }
        guard i > start, let value = Double(String(characters[start..<i])) else {
            i = start
            throw fail(peek.map { "expected a number, found \"\($0)\"" } ?? "expected a number, the line ends")
        }
        return value
    }
}

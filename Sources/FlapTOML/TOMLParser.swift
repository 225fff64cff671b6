/// Reads a TOML 1.0 document. flapd's own (some 500 lines) because the TOML package it used
/// (TOMLKit, over toml++) imports Foundation, which brought all of Foundation and ICU's 34 MB of
/// data into flapd; what flapd needs is this reader and an error that says the line and column.
public struct TOMLParser {
    let text: [Unicode.Scalar]
    var index = 0
    var root = TOMLTable()
    /// The table key/value lines go into now: the path of the last [header] or [[header]].
    var current: [String] = []
    /// Tables given a [header] of their own, and tables made whole by an inline table or a dotted
    /// key, which no later line may add to or define again.
    var defined: Set<[String]> = []
    var closed: Set<[String]> = []
    /// Inline tables and arrays given whole with `=`: nothing may be added inside them later.
    var frozen: Set<[String]> = []
    /// Arrays and inline tables open around the value being read.
    var depth = 0

    /// How deep arrays and inline tables may nest (flapd's settings need three): reading one
    /// nested deeper would recurse toward the end of the stack, so it is refused.
    public static let deepestNesting = 64

    /// The document `text` as a table, or where and why it is not valid TOML.
    public static func parse(_ text: String) throws(TOMLSyntaxError) -> TOMLTable {
        var parser = TOMLParser(text: Array(text.unicodeScalars))
        try parser.document()
        return parser.root
    }

    init(text: [Unicode.Scalar]) { self.text = text }

    // MARK: Lines

    mutating func document() throws(TOMLSyntaxError) {
        while true {
            skipBlanks()
            guard let scalar = peek else { return }
            switch scalar {
            case "#": try skipComment()
            case "\n": index += 1
            case "\r": try newline()
            case "[": try header()
            default: try keyValue(into: current)
            }
        }
    }

    mutating func header() throws(TOMLSyntaxError) {
        index += 1
        let isArray = peek == "["
        if isArray { index += 1 }
        skipBlanks()
        let path = try key()
        skipBlanks()
        try expect("]")
        if isArray { try expect("]") }
        try endOfLine()
        try refuseAddingToWholeValues(path, upTo: path.count)
        if isArray {
            try appendTable(at: path)
        } else {
            guard !defined.contains(path), !closed.contains(path) else { throw error("the table [\(dotted(path))] is defined twice") }
            guard !isListOfTables(path) else { throw error("[\(dotted(path))] names a list of tables: write [[\(dotted(path))]] to add one") }
            defined.insert(path)
            try withTable(at: path) { _ throws(TOMLSyntaxError) in }
        }
        current = path
    }

    mutating func keyValue(into table: [String]) throws(TOMLSyntaxError) {
        let path = try key()
        skipBlanks()
        try expect("=")
        skipBlanks()
        let value = try self.value()
        try endOfLine()
        try set(value, at: table + path, dottedFrom: table.count)
    }

    // MARK: Keys

    /// A key: bare, quoted or dotted (`a."b c".d`).
    mutating func key() throws(TOMLSyntaxError) -> [String] {
        var parts: [String] = []
        repeat {
            skipBlanks()
            if peek == "\"" {
                parts.append(try basicString())
            } else if peek == "'" {
                parts.append(try literalString())
            } else {
                let start = index
                while let scalar = peek,
                    scalar.properties.isASCIIHexDigit || ("g"..."z").contains(scalar) || ("G"..."Z").contains(scalar) || scalar == "_"
                        || scalar == "-"
                {
                    index += 1
                }
                guard index > start else { throw error(peek.map { "\($0.escaped(asASCII: false)) cannot start a key" } ?? "a key is missing") }
                parts.append(String(String.UnicodeScalarView(text[start..<index])))
            }
            skipBlanks()
        } while consume(".")
        return parts
    }

    // MARK: Values

    mutating func value() throws(TOMLSyntaxError) -> TOMLValue {
        guard let scalar = peek else { throw error("a value is missing") }
        if scalar == "[" || scalar == "{" {
            guard depth < Self.deepestNesting else { throw error("arrays and inline tables nest more than \(Self.deepestNesting) deep") }
            depth += 1
            defer { depth -= 1 }
            return try scalar == "[" ? array() : inlineTable()
        }
        switch scalar {
        case "\"": return .string(try starts(with: "\"\"\"") ? multilineBasicString() : basicString())
        case "'": return .string(try starts(with: "'''") ? multilineLiteralString() : literalString())
        case "t", "f":
            if starts(with: "true") { index += 4; return .bool(true) }
            if starts(with: "false") { index += 5; return .bool(false) }
            throw error("true and false are written in lower case, strings in quotes")
        default: return try numberOrDate()
        }
    }

    mutating func array() throws(TOMLSyntaxError) -> TOMLValue {
        index += 1
        var elements: [TOMLValue] = []
        while true {
            try skipWhitespaceAndComments()
            if consume("]") { return .array(elements) }
            elements.append(try value())
            try skipWhitespaceAndComments()
            if consume(",") { continue }
            try expect("]")
            return .array(elements)
        }
    }

    mutating func inlineTable() throws(TOMLSyntaxError) -> TOMLValue {
        index += 1
        var inline = TOMLParser(text: [])
        skipBlanks()
        if consume("}") { return .table(TOMLTable()) }
        repeat {
            skipBlanks()
            let path = try key()
            skipBlanks()
            try expect("=")
            skipBlanks()
            let value = try self.value()
            do {
                try inline.set(value, at: path, dottedFrom: 0)
            } catch let problem {
                throw error(problem.message)
            }
            skipBlanks()
        } while consume(",")
        try expect("}")
        return .table(inline.root)
    }

    mutating func numberOrDate() throws(TOMLSyntaxError) -> TOMLValue {
        let start = index
        // Dates and times: 1979-05-27, 07:32:00, 1979-05-27T07:32:00Z, 1979-05-27 07:32:00.
        let looksLikeDate = lookahead(4).allSatisfy(\.properties.isASCIIHexDigit) && peek(at: 4) == "-"
        let looksLikeTime = lookahead(2).allSatisfy(\.properties.isASCIIHexDigit) && peek(at: 2) == ":"
        if looksLikeDate || looksLikeTime {
            while let scalar = peek, scalar.properties.isASCIIHexDigit || "-:.TtZz+".unicodeScalars.contains(scalar) { index += 1 }
            if looksLikeDate, peek == " ", peek(at: 1).map({ ("0"..."9").contains($0) }) == true, peek(at: 3) == ":" {
                index += 1
                while let scalar = peek, scalar.properties.isASCIIHexDigit || ":.Zz+-".unicodeScalars.contains(scalar) { index += 1 }
            }
            let written = text[start..<index]
            guard TOMLDateTime.isValid(written) else {
                index = start
                throw error(
                    "\(String(String.UnicodeScalarView(written))) is not a date or time TOML knows (1979-05-27, 07:32:00, 1979-05-27T07:32:00Z, each field in range)"
                )
            }
            return .dateTime(String(String.UnicodeScalarView(written)))
        }
        while let scalar = peek, !" \t\r\n,]}#".unicodeScalars.contains(scalar) { index += 1 }
        let word = String(String.UnicodeScalarView(text[start..<index]))
        if let integer = Self.integer(word) { return .integer(integer) }
        if let float = Self.float(word) { return .float(float) }
        index = start
        throw error(word.isEmpty ? "a value is missing" : "\(word) is not a value: strings are written in quotes (\"\(word)\")")
    }

    static func integer(_ word: String) -> Int? {
        var digits = Substring(word)
        var radix = 10
        for (prefix, base) in [("0x", 16), ("0o", 8), ("0b", 2)] where digits.hasPrefix(prefix) {
            digits = digits.dropFirst(2)
            radix = base
        }
        guard !digits.isEmpty, !digits.hasPrefix("_"), !digits.hasSuffix("_"), !digits.contains("__") else { return nil }
        let plain = digits.filter { $0 != "_" }
        if radix == 10 {
            let unsigned = plain.hasPrefix("+") || plain.hasPrefix("-") ? plain.dropFirst() : Substring(plain)
            guard !(unsigned.count > 1 && unsigned.hasPrefix("0")) else { return nil }  // no leading zeros
        } else if plain.hasPrefix("+") || plain.hasPrefix("-") {
            return nil
        }
        return Int(plain, radix: radix)
    }

    static func float(_ word: String) -> Double? {
        switch word {
        case "inf", "+inf": return .infinity
        case "-inf": return -.infinity
        case "nan", "+nan", "-nan": return .nan
        default: break
        }
        guard TOMLNumber.isDecimalFloat(word) else { return nil }
        return Double(word.filter { $0 != "_" })
    }

    // MARK: Scanning

    var peek: Unicode.Scalar? { index < text.count ? text[index] : nil }
    func peek(at offset: Int) -> Unicode.Scalar? { index + offset < text.count ? text[index + offset] : nil }
    func lookahead(_ count: Int) -> ArraySlice<Unicode.Scalar> { text[index..<min(text.count, index + count)] }
    func starts(with word: String) -> Bool { lookahead(word.unicodeScalars.count).elementsEqual(word.unicodeScalars) }

    mutating func consume(_ scalar: Unicode.Scalar) -> Bool {
        guard peek == scalar else { return false }
        index += 1
        return true
    }

    mutating func expect(_ scalar: Unicode.Scalar) throws(TOMLSyntaxError) {
        guard consume(scalar) else {
            throw error("\(scalar) expected" + (peek.map { ", not \($0.escaped(asASCII: false))" } ?? " before the end of the file"))
        }
    }

    mutating func skipBlanks() { while peek == " " || peek == "\t" { index += 1 } }
    mutating func skipComment() throws(TOMLSyntaxError) {
        while let scalar = peek, scalar != "\n" {
            if scalar == "\r", peek(at: 1) == "\n" { return }
            if Self.isControl(scalar) { throw error("a control character (U+\(Self.hex(scalar))) in a comment") }
            index += 1
        }
    }

    mutating func skipWhitespaceAndNewlines() {
        while let scalar = peek, scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" { index += 1 }
    }

    mutating func skipWhitespaceAndComments() throws(TOMLSyntaxError) {
        while true {
            skipWhitespaceAndNewlines()
            guard peek == "#" else { return }
            try skipComment()
        }
    }

    mutating func skipFirstNewline() {
        if peek == "\n" { index += 1 } else if peek == "\r", peek(at: 1) == "\n" { index += 2 }
    }

    mutating func newline() throws(TOMLSyntaxError) {
        if peek == "\r" { index += 1 }
        guard consume("\n") else { throw error("a carriage return must be followed by a line feed") }
    }

    /// After a value or header: blanks, perhaps a comment, then the end of the line.
    mutating func endOfLine() throws(TOMLSyntaxError) {
        skipBlanks()
        if peek == "#" { try skipComment() }
        guard let scalar = peek else { return }
        if scalar == "\n" || scalar == "\r" { return try newline() }
        throw error("the line goes on after its value: \(scalar.escaped(asASCII: false)) (one key = value a line)")
    }

    func dotted(_ path: [String]) -> String { path.joined(separator: ".") }

    /// An error at the current position, with its line and column (both from 1).
    func error(_ message: String) -> TOMLSyntaxError {
        var line = 1, column = 1
        for scalar in text[..<min(index, text.count)] {
            if scalar == "\n" { line += 1; column = 1 } else { column += 1 }
        }
        return TOMLSyntaxError(line: line, column: column, message: message)
    }
}

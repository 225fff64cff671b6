/// Reads a TOML 1.0 document. flapd's own (some 500 lines) because the TOML package it used
/// (TOMLKit, over toml++) imports Foundation, which brought all of Foundation and ICU's 34 MB of
/// data into flapd; what flapd needs is this reader and an error that says the line and column.
public struct TOMLParser {
    private let text: [Unicode.Scalar]
    private var index = 0
    private var root = TOMLTable()
    /// The table key/value lines go into now: the path of the last [header] or [[header]].
    private var current: [String] = []
    /// Tables given a [header] of their own, and tables made whole by an inline table or a dotted
    /// key, which no later line may add to or define again.
    private var defined: Set<[String]> = []
    private var closed: Set<[String]> = []
    /// Inline tables and arrays given whole with `=`: nothing may be added inside them later.
    private var frozen: Set<[String]> = []
    /// Arrays and inline tables open around the value being read.
    private var depth = 0

    /// How deep arrays and inline tables may nest (flapd's settings need three): reading one
    /// nested deeper would recurse toward the end of the stack, so it is refused.
    public static let deepestNesting = 64

    public static func parse(_ text: String) throws(TOMLSyntaxError) -> TOMLTable {
        var parser = TOMLParser(text: Array(text.unicodeScalars))
        try parser.document()
        return parser.root
    }

    private init(text: [Unicode.Scalar]) { self.text = text }

    // MARK: Lines

    private mutating func document() throws(TOMLSyntaxError) {
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

    private mutating func header() throws(TOMLSyntaxError) {
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

    private mutating func keyValue(into table: [String]) throws(TOMLSyntaxError) {
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
    private mutating func key() throws(TOMLSyntaxError) -> [String] {
        var parts: [String] = []
        repeat {
            skipBlanks()
            if peek == "\"" {
                parts.append(try basicString())
            } else if peek == "'" {
                parts.append(try literalString())
            } else {
                let start = index
                while let scalar = peek, scalar.properties.isASCIIHexDigit || ("g"..."z").contains(scalar) || ("G"..."Z").contains(scalar) || scalar == "_" || scalar == "-" {
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

    private mutating func value() throws(TOMLSyntaxError) -> TOMLValue {
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

    private mutating func array() throws(TOMLSyntaxError) -> TOMLValue {
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

    private mutating func inlineTable() throws(TOMLSyntaxError) -> TOMLValue {
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

    private mutating func numberOrDate() throws(TOMLSyntaxError) -> TOMLValue {
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
                throw error("\(String(String.UnicodeScalarView(written))) is not a date or time TOML knows (1979-05-27, 07:32:00, 1979-05-27T07:32:00Z, each field in range)")
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

    private static func integer(_ word: String) -> Int? {
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

    private static func float(_ word: String) -> Double? {
        switch word {
        case "inf", "+inf": return .infinity
        case "-inf": return -.infinity
        case "nan", "+nan", "-nan": return .nan
        default: break
        }
        guard TOMLNumber.isDecimalFloat(word) else { return nil }
        return Double(word.filter { $0 != "_" })
    }

    // MARK: Strings

    private mutating func basicString() throws(TOMLSyntaxError) -> String {
        index += 1
        var result = String.UnicodeScalarView()
        while true {
            guard let scalar = peek, scalar != "\n" else { throw error("a string is not closed on its line (a \" is missing)") }
            try refuseControl(scalar)
            index += 1
            if scalar == "\"" { return String(result) }
            if scalar == "\\" { result.append(try escape()) } else { result.append(scalar) }
        }
    }

    private mutating func multilineBasicString() throws(TOMLSyntaxError) -> String {
        index += 3
        skipFirstNewline()
        var result = String.UnicodeScalarView()
        while true {
            if starts(with: "\"\"\"") {
                index += 3
                // Up to two quotes right before the closing three belong to the string.
                for _ in 0..<2 where peek == "\"" { result.append("\""); index += 1 }
                return String(result)
            }
            guard let scalar = peek else { throw error("a \"\"\" string is not closed") }
            try refuseControl(scalar, multiline: true)
            index += 1
            if scalar == "\\" {
                // A backslash at the end of a line joins it to the next, without the blanks.
                var probe = index
                while probe < text.count, text[probe] == " " || text[probe] == "\t" { probe += 1 }
                if probe < text.count, text[probe] == "\n" || text[probe] == "\r" {
                    index = probe
                    skipWhitespaceAndNewlines()
                } else {
                    result.append(try escape())
                }
            } else {
                result.append(scalar)
            }
        }
    }

    private mutating func literalString() throws(TOMLSyntaxError) -> String {
        index += 1
        let start = index
        while let scalar = peek, scalar != "'" {
            guard scalar != "\n" else { throw error("a string is not closed on its line (a ' is missing)") }
            try refuseControl(scalar)
            index += 1
        }
        guard peek == "'" else { throw error("a string is not closed (a ' is missing)") }
        defer { index += 1 }
        return String(String.UnicodeScalarView(text[start..<index]))
    }

    private mutating func multilineLiteralString() throws(TOMLSyntaxError) -> String {
        index += 3
        skipFirstNewline()
        let start = index
        while !starts(with: "'''") {
            guard let scalar = peek else { throw error("a ''' string is not closed") }
            try refuseControl(scalar, multiline: true)
            index += 1
        }
        var end = index
        index += 3
        for _ in 0..<2 where peek == "'" { index += 1; end += 1 }
        return String(String.UnicodeScalarView(text[start..<end]))
    }

    private mutating func escape() throws(TOMLSyntaxError) -> Unicode.Scalar {
        guard let scalar = peek else { throw error("a \\ ends the file") }
        index += 1
        switch scalar {
        case "b": return "\u{08}"
        case "t": return "\t"
        case "n": return "\n"
        case "f": return "\u{0C}"
        case "r": return "\r"
        case "e": return "\u{1B}"
        case "\"": return "\""
        case "\\": return "\\"
        case "u", "U":
            let count = scalar == "u" ? 4 : 8
            let digits = String(String.UnicodeScalarView(lookahead(count)))
            guard digits.count == count, let value = UInt32(digits, radix: 16), let unicode = Unicode.Scalar(value) else {
                throw error("\\\(scalar) needs \(count) hexadecimal digits of a Unicode scalar")
            }
            index += count
            return unicode
        default:
            throw error("\\\(scalar.escaped(asASCII: false)) is not an escape TOML knows (write \\\\ for a backslash)")
        }
    }

    // MARK: Building the tables

    /// Puts `value` at `path`; the keys after the first `dottedFrom` are a dotted key, whose
    /// tables are made by it and closed to later headers.
    private mutating func set(_ value: TOMLValue, at path: [String], dottedFrom: Int) throws(TOMLSyntaxError) {
        let parent = Array(path.dropLast())
        try refuseAddingToWholeValues(path, upTo: parent.count)
        for depth in dottedFrom..<parent.count {
            let prefix = Array(parent.prefix(depth + 1))
            if defined.contains(prefix) { throw error("the table [\(dotted(prefix))] is already defined; a dotted key cannot add to it") }
            if isListOfTables(prefix) { throw error("\(dotted(prefix)) is a list of tables ([[\(dotted(prefix))]]); a dotted key cannot add to it") }
        }
        let name = path[path.count - 1], shown = dotted(path)
        try withTable(at: parent) { (table: inout TOMLTable) throws(TOMLSyntaxError) in
            guard table[name] == nil else { throw TOMLSyntaxError(line: 0, column: 0, message: "\(shown) is given twice") }
            table[name] = value
        }
        for depth in dottedFrom..<parent.count { closed.insert(Array(parent.prefix(depth + 1))) }
        if case .table = value { closed.insert(path) }
        switch value {
        case .table, .array: frozen.insert(path)
        default: break
        }
    }

    /// Refuses a header or key that would add to an inline table or an array given whole with
    /// `=` (the first `depth` keys of `path` are where it would go).
    private func refuseAddingToWholeValues(_ path: [String], upTo depth: Int) throws(TOMLSyntaxError) {
        for length in stride(from: 1, through: min(depth, path.count), by: 1) where frozen.contains(Array(path.prefix(length))) {
            let whole = dotted(Array(path.prefix(length)))
            throw error("\(whole) was given whole as an inline table or array; nothing can be added to it later")
        }
    }

    /// Refuses a control character written as itself in a string (tabs, and in a multi-line
    /// string its line breaks, are the exceptions).
    private func refuseControl(_ scalar: Unicode.Scalar, multiline: Bool = false) throws(TOMLSyntaxError) {
        if multiline, scalar == "\n" || (scalar == "\r" && peek(at: 1) == "\n") { return }
        guard Self.isControl(scalar) else { return }
        throw error("a control character (U+\(Self.hex(scalar))) in a string: write it as \\u\(Self.hex(scalar))")
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool { (scalar.value < 0x20 && scalar != "\t") || scalar.value == 0x7F }

    static func hex(_ scalar: Unicode.Scalar) -> String {
        let digits = String(scalar.value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    private mutating func appendTable(at path: [String]) throws(TOMLSyntaxError) {
        let parent = Array(path.dropLast())
        let name = path[path.count - 1], shown = dotted(path)
        try withTable(at: parent) { (table: inout TOMLTable) throws(TOMLSyntaxError) in
            switch table[name] {
            case nil: table[name] = .array([.table(TOMLTable())])
            case .array(var elements) where elements.allSatisfy({ $0.table != nil }) && !elements.isEmpty:
                elements.append(.table(TOMLTable()))
                table[name] = .array(elements)
            default: throw TOMLSyntaxError(line: 0, column: 0, message: "[[\(shown)]] names something that is not a list of tables")
            }
        }
        // A new element: the tables defined under the previous one may be defined again.
        defined = defined.filter { !$0.starts(with: path) || $0.count <= path.count }
        closed = closed.filter { !$0.starts(with: path) || $0.count <= path.count }
        frozen = frozen.filter { !$0.starts(with: path) || $0.count <= path.count }
    }

    /// Whether `path` holds a list of tables ([[path]]).
    private func isListOfTables(_ path: [String]) -> Bool {
        var table = root
        for name in path.dropLast() {
            switch table[name] {
            case .table(let sub): table = sub
            case .array(let elements): guard let last = elements.last?.table else { return false }; table = last
            default: return false
            }
        }
        if case .array = table[path[path.count - 1]] { return true }
        return false
    }

    /// Runs `body` on the table at `path` (made when missing; the last element of a list of tables).
    private mutating func withTable(at path: [String], _ body: (inout TOMLTable) throws(TOMLSyntaxError) -> Void) throws(TOMLSyntaxError) {
        do {
            try Self.descend(&root, path[...], body)
        } catch let problem {
            throw problem.line == 0 ? error(problem.message) : problem
        }
    }

    private static func descend(_ table: inout TOMLTable, _ path: ArraySlice<String>, _ body: (inout TOMLTable) throws(TOMLSyntaxError) -> Void) throws(TOMLSyntaxError) {
        guard let name = path.first else { return try body(&table) }
        switch table[name] {
        case nil:
            var fresh = TOMLTable()
            try descend(&fresh, path.dropFirst(), body)
            table[name] = .table(fresh)
        case .table(var sub):
            try descend(&sub, path.dropFirst(), body)
            table[name] = .table(sub)
        case .array(var elements) where elements.last?.table != nil:
            guard case .table(var last) = elements[elements.count - 1] else { return }
            try descend(&last, path.dropFirst(), body)
            elements[elements.count - 1] = .table(last)
            table[name] = .array(elements)
        default:
            throw TOMLSyntaxError(line: 0, column: 0, message: "\(name) is a value, not a table")
        }
    }

    // MARK: Scanning

    private var peek: Unicode.Scalar? { index < text.count ? text[index] : nil }
    private func peek(at offset: Int) -> Unicode.Scalar? { index + offset < text.count ? text[index + offset] : nil }
    private func lookahead(_ count: Int) -> ArraySlice<Unicode.Scalar> { text[index..<min(text.count, index + count)] }
    private func starts(with word: String) -> Bool { lookahead(word.unicodeScalars.count).elementsEqual(word.unicodeScalars) }

    private mutating func consume(_ scalar: Unicode.Scalar) -> Bool {
        guard peek == scalar else { return false }
        index += 1
        return true
    }

    private mutating func expect(_ scalar: Unicode.Scalar) throws(TOMLSyntaxError) {
        guard consume(scalar) else {
            throw error("\(scalar) expected" + (peek.map { ", not \($0.escaped(asASCII: false))" } ?? " before the end of the file"))
        }
    }

    private mutating func skipBlanks() { while peek == " " || peek == "\t" { index += 1 } }
    private mutating func skipComment() throws(TOMLSyntaxError) {
        while let scalar = peek, scalar != "\n" {
            if scalar == "\r", peek(at: 1) == "\n" { return }
            if Self.isControl(scalar) { throw error("a control character (U+\(Self.hex(scalar))) in a comment") }
            index += 1
        }
    }

    private mutating func skipWhitespaceAndNewlines() {
        while let scalar = peek, scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" { index += 1 }
    }

    private mutating func skipWhitespaceAndComments() throws(TOMLSyntaxError) {
        while true {
            skipWhitespaceAndNewlines()
            guard peek == "#" else { return }
            try skipComment()
        }
    }

    private mutating func skipFirstNewline() {
        if peek == "\n" { index += 1 } else if peek == "\r", peek(at: 1) == "\n" { index += 2 }
    }

    private mutating func newline() throws(TOMLSyntaxError) {
        if peek == "\r" { index += 1 }
        guard consume("\n") else { throw error("a carriage return must be followed by a line feed") }
    }

    /// After a value or header: blanks, perhaps a comment, then the end of the line.
    private mutating func endOfLine() throws(TOMLSyntaxError) {
        skipBlanks()
        if peek == "#" { try skipComment() }
        guard let scalar = peek else { return }
        if scalar == "\n" || scalar == "\r" { return try newline() }
        throw error("the line goes on after its value: \(scalar.escaped(asASCII: false)) (one key = value a line)")
    }

    private func dotted(_ path: [String]) -> String { path.joined(separator: ".") }

    /// An error at the current position, with its line and column (both from 1).
    private func error(_ message: String) -> TOMLSyntaxError {
        var line = 1, column = 1
        for scalar in text[..<min(index, text.count)] {
            if scalar == "\n" { line += 1; column = 1 } else { column += 1 }
        }
        return TOMLSyntaxError(line: line, column: column, message: message)
    }
}

import FlapJSON
import FlapPrimitives

/// Mustache as mustache.js renders it, which is how Vestaboard's renderer fills a VBML
/// template's props: `{{name}}` (HTML-escaped, as mustache.js does), `{{{name}}}` and
/// `{{&name}}` (as they are), sections over lists, objects and true values, inverted sections,
/// `.` and dotted names looked up through the enclosing sections, comments, partials (none, so
/// empty), and tags alone on their line taking the line with them. Hand-written: the Mustache
/// package on this machine (swift-mustache) imports Foundation, which would bring ICU into flapd,
/// and escapes fewer characters than mustache.js.
public enum Mustache {
    public struct Problem: Error, Equatable, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// What rendering one template may cost. Templates and props come from members, MQTT
    /// clients and fetched sources: `{{#l}}{{#l}}{{#l}}x{{/l}}{{/l}}{{/l}}` over a 280-item list
    /// is 22 million passes. A template past a budget is refused, saying which.
    public enum Budget {
        /// Characters of output (UTF-8 bytes): a board holds a few hundred.
        public static let outputBytes = 65_536
        /// Times section bodies are rendered, all sections together.
        public static let sectionPasses = 10_000
        /// Sections inside sections.
        public static let nesting = 32
    }

    /// `template` with `props` filled in.
    public static func render(_ template: String, props: JSONValue) throws(Problem) -> String {
        var parser = Parser(template)
        let tokens = try parser.parse()
        var output = Output()
        try render(tokens, context: [props], into: &output)
        return output.text
    }

    // MARK: Tokens

    indirect enum Token {
        case text(String)
        case variable(String, escaped: Bool)
        case section(String, [Token], inverted: Bool)
    }

    /// mustache.js's parser: text is read character by character so that a line holding only
    /// whitespace and section, comment or partial tags can be dropped whole, newline included.
    struct Parser {
        // Unicode scalars, not Characters: "\r\n" is one Character, and mustache.js ends a line at its \n.
        let characters: [Unicode.Scalar]
        var position = 0

        init(_ template: String) { characters = Array(template.unicodeScalars) }

        /// A flat token: text one character at a time (so a standalone line's can be dropped),
        /// or a tag with its kind and name.
        enum Flat { case character(Unicode.Scalar), tag(Unicode.Scalar, String), removed }

        mutating func parse() throws(Problem) -> [Token] {
            var flat: [Flat] = []
            var spaces: [Int] = []
            var hasTag = false, nonSpace = false
            func stripSpace() {
                if hasTag && !nonSpace { for index in spaces { flat[index] = .removed } }
                spaces = []
                hasTag = false
                nonSpace = false
            }
            while position < characters.count {
                if starts(with: "{{") {
                    position += 2
                    hasTag = true
                    var kind: Unicode.Scalar = "n"
                    if let next = peek, "#^/>{&=!".unicodeScalars.contains(next) { kind = next; position += 1 }
                    skipWhitespace()
                    let name: String
                    if kind == "{" {
                        name = try scan(until: "}}}").trimmedTrailingWhitespace
                        kind = "&"
                    } else if kind == "=" {
                        throw Problem(description: "changing Mustache's delimiters ({{=…=}}) is not supported in VBML templates")
                    } else {
                        name = try scan(until: "}}").trimmedTrailingWhitespace
                    }
                    flat.append(.tag(kind, name))
                    if kind == "n" || kind == "&" { nonSpace = true }
                    continue
                }
                let character = characters[position]
                position += 1
                if character.properties.isWhitespace { spaces.append(flat.count) } else { nonSpace = true }
                flat.append(.character(character))
                if character == "\n" { stripSpace() }
            }
            stripSpace()
            var index = 0
            let tokens = try Self.nest(flat, from: &index, closing: nil)
            return tokens
        }

        /// The flat tokens from `index` as a tree, up to the tag closing `closing`.
        static func nest(_ flat: [Flat], from index: inout Int, closing: String?, depth: Int = 0) throws(Problem) -> [Token] {
            guard depth <= Budget.nesting else {
                throw Problem(description: "sections are nested more than \(Budget.nesting) deep ({{#\(closing ?? "")}} inside them)")
            }
            var tokens: [Token] = []
            var text = String.UnicodeScalarView()
            func flush() {
                if !text.isEmpty { tokens.append(.text(String(text))); text = String.UnicodeScalarView() }
            }
            while index < flat.count {
                let token = flat[index]
                index += 1
                switch token {
                case .removed: continue
                case .character(let character): text.append(character)
                case .tag(let kind, let name):
                    switch kind {
                    case "!", ">": continue
                    case "n": flush(); tokens.append(.variable(name, escaped: true))
                    case "&": flush(); tokens.append(.variable(name, escaped: false))
                    case "#", "^":
                        flush()
                        let body = try nest(flat, from: &index, closing: name, depth: depth + 1)
                        tokens.append(.section(name, body, inverted: kind == "^"))
                    default:  // "/"
                        guard let closing else { throw Problem(description: "{{/\(name)}} closes a section that was not opened") }
                        guard closing == name else { throw Problem(description: "{{/\(name)}} closes {{#\(closing)}}") }
                        flush()
                        return tokens
                    }
                }
            }
            if let closing { throw Problem(description: "{{#\(closing)}} is not closed (a {{/\(closing)}} is missing)") }
            flush()
            return tokens
        }

        var peek: Unicode.Scalar? { position < characters.count ? characters[position] : nil }

        func starts(with text: String) -> Bool {
            var offset = position
            for character in text.unicodeScalars {
                guard offset < characters.count, characters[offset] == character else { return false }
                offset += 1
            }
            return true
        }

        mutating func skipWhitespace() { while let next = peek, next.properties.isWhitespace { position += 1 } }

        mutating func scan(until closing: String) throws(Problem) -> String {
            let start = position
            while position < characters.count {
                if starts(with: closing) {
                    defer { position += closing.unicodeScalars.count }
                    return String(String.UnicodeScalarView(characters[start..<position]))
                }
                position += 1
            }
            throw Problem(description: "a tag opened with {{ is not closed with \(closing)")
        }
    }

    // MARK: Rendering

    /// The text rendered so far, and what it has cost.
    struct Output {
        var text = ""
        var passes = 0

        mutating func append(_ more: String) throws(Problem) {
            text += more
            guard text.utf8.count <= Budget.outputBytes else {
                throw Problem(description: "the template renders to more than \(Budget.outputBytes / 1024) KiB (a board shows a few hundred characters)")
            }
        }

        mutating func pass() throws(Problem) {
            passes += 1
            guard passes <= Budget.sectionPasses else {
                throw Problem(description: "the template's sections repeat more than \(Budget.sectionPasses) times (sections over long lists inside each other)")
            }
        }
    }

    static func render(_ tokens: [Token], context: [JSONValue], into output: inout Output) throws(Problem) {
        for token in tokens {
            switch token {
            case .text(let text): try output.append(text)
            case .variable(let name, let escaped):
                guard let value = lookup(name, in: context), !value.isNull else { continue }
                let text = javaScriptString(value)
                try output.append(escaped ? escapeHTML(text) : text)
            case .section(let name, let body, let inverted):
                let value = lookup(name, in: context)
                if inverted {
                    if !isTruthy(value) || value?.array?.isEmpty == true {
                        try output.pass()
                        try render(body, context: context, into: &output)
                    }
                    continue
                }
                guard let value, isTruthy(value) else { continue }
                switch value {
                case .array(let items):
                    for item in items {
                        try output.pass()
                        try render(body, context: context + [item], into: &output)
                    }
                default:
                    try output.pass()
                    try render(body, context: value.bool != nil ? context : context + [value], into: &output)
                }
            }
        }
    }

    /// mustache.js's lookup: `.` is the innermost view; a name is looked for from the innermost
    /// view out; a dotted name's first part finds the view, the rest are read from it.
    static func lookup(_ name: String, in context: [JSONValue]) -> JSONValue? {
        if name == "." { return context.last }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        for view in context.reversed() {
            if parts.count == 1 {
                if let value = property(parts[0], of: view, objectsOnly: true) { return value }
                continue
            }
            var value: JSONValue? = view
            var hit = false
            for (index, part) in parts.enumerated() {
                guard let current = value, !current.isNull else { break }
                if index == parts.count - 1 { hit = property(part, of: current, objectsOnly: false) != nil }
                value = property(part, of: current, objectsOnly: false)
            }
            if hit { return value }
        }
        return nil
    }

    /// `value[name]` as JavaScript reads it from an object, a list (an index, `length`) or,
    /// unless `objectsOnly`, a string (`length`).
    static func property(_ name: String, of value: JSONValue, objectsOnly: Bool) -> JSONValue? {
        switch value {
        case .object(let fields): return fields[name]
        case .array(let items):
            if name == "length" { return .number(Double(items.count)) }
            if let index = Int(name), items.indices.contains(index) { return items[index] }
            return nil
        case .string(let text) where !objectsOnly && name == "length": return .number(Double(text.utf16.count))
        default: return nil
        }
    }

    /// JavaScript's truthiness: false, 0, NaN, "", null and a missing value are false.
    static func isTruthy(_ value: JSONValue?) -> Bool {
        switch value {
        case nil, .null?: false
        case .bool(let flag)?: flag
        case .number(let number)?: number != 0 && !number.isNaN
        case .string(let text)?: !text.isEmpty
        default: true
        }
    }

    /// `String(value)` in JavaScript.
    static func javaScriptString(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let flag): flag ? "true" : "false"
        case .number(let number): javaScriptNumber(number)
        case .string(let text): text
        case .array(let items): items.map { $0.isNull ? "" : javaScriptString($0) }.joined(separator: ",")
        case .object: "[object Object]"
        }
    }

    /// A number as JavaScript writes it (ECMAScript's Number::toString): the shortest digits
    /// that read back, as a plain number from 10⁻⁶ up to 10²¹, in exponent form (`1e+21`,
    /// `1e-7`) outside that.
    static func javaScriptNumber(_ number: Double) -> String {
        if number.isNaN { return "NaN" }
        if number.isInfinite { return number > 0 ? "Infinity" : "-Infinity" }
        if number == 0 { return "0" }
        let sign = number < 0 ? "-" : ""
        // Swift's description has the same shortest digits; take them and the point's place.
        var text = "\(abs(number))"
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            exponent = Int(text[text.index(after: e)...]) ?? 0
            text = String(text[..<e])
        }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        var digits = String(parts[0]) + (parts.count > 1 ? String(parts[1]) : "")
        var point = parts[0].count + exponent  // digits before the point
        while digits.hasPrefix("0"), digits.count > 1 { digits.removeFirst(); point -= 1 }
        while digits.hasSuffix("0"), digits.count > 1 { digits.removeLast() }
        let k = digits.count
        if k <= point, point <= 21 { return sign + digits + String(repeating: "0", count: point - k) }
        if 0 < point, point <= 21 { return sign + digits.prefix(point) + "." + digits.dropFirst(point) }
        if -6 < point, point <= 0 { return sign + "0." + String(repeating: "0", count: -point) + digits }
        let shown = point - 1
        let mantissa = k == 1 ? digits : digits.prefix(1) + "." + digits.dropFirst()
        return sign + mantissa + "e" + (shown < 0 ? "-" : "+") + String(abs(shown))
    }

    /// mustache.js's escaping: `& < > " ' / \` =`.
    static func escapeHTML(_ text: String) -> String { text.escaping(htmlEscapes) }

    static let htmlEscapes: [Character: String] = [
        "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;", "/": "&#x2F;", "`": "&#x60;", "=": "&#x3D;",
    ]
}

extension String {
    var trimmedTrailingWhitespace: String {
        var text = Substring(self)
        while text.last?.isWhitespace == true { text.removeLast() }
        return String(text)
    }
}

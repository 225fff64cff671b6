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
    /// A template that cannot be read, said in words.
    public struct Problem: Error, Equatable, Sendable, CustomStringConvertible {
        /// What is wrong.
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

}

extension String {
    var trimmedTrailingWhitespace: String {
        var text = Substring(self)
        while text.last?.isWhitespace == true { text.removeLast() }
        return String(text)
    }
}

/// An XML document as a tree of elements, enough for RSS and Atom: elements with their
/// attributes (names without their prefixes), text and CDATA, the five entities XML defines
/// and numeric character references; comments, processing instructions and a DOCTYPE skipped.
/// Encodings: UTF-8, US-ASCII, ISO-8859-1 and windows-1252. Hand-written: the XML packages on
/// this machine (SWXMLHash, XMLCoder) stand on Foundation's XMLParser, which brings all of
/// Foundation and ICU into flapd.
struct XMLElement: Sendable, Equatable {
    /// The local name, without a namespace prefix (`dc:date` is `date`).
    var name: String
    /// The prefix it was written with (`dc` for `dc:date`), empty without one.
    var prefix: String = ""
    var attributes: [String: String] = [:]
    var children: [Node] = []

    enum Node: Sendable, Equatable {
        case element(XMLElement)
        case text(String)
    }

    var elements: [XMLElement] { children.compactMap { if case .element(let element) = $0 { element } else { nil } } }

    func first(_ name: String) -> XMLElement? { elements.first { $0.name == name } }

    func all(_ name: String) -> [XMLElement] { elements.filter { $0.name == name } }

    /// All the text inside it, its elements' too.
    var text: String {
        children.map { node in
            switch node {
            case .text(let text): text
            case .element(let element): element.text
            }
        }.joined()
    }
}

struct XMLProblem: Error, Sendable, CustomStringConvertible {
    var description: String
}

struct XMLTreeReader {
    /// How deep elements may nest: RSS and Atom need five or six. A feed nested deeper is
    /// refused, so neither reading it nor the tree it makes can run out of stack.
    static let deepestNesting = 64

    private let scalars: [Unicode.Scalar]
    private var position = 0

    /// Reads `bytes` in the encoding their declaration names (UTF-8 without one).
    static func document(_ bytes: [UInt8]) throws(XMLProblem) -> XMLElement {
        var reader = XMLTreeReader(scalars: try decode(bytes))
        return try reader.root()
    }

    private init(scalars: [Unicode.Scalar]) { self.scalars = scalars }

    private static func decode(_ bytes: [UInt8]) throws(XMLProblem) -> [Unicode.Scalar] {
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        if body.starts(with: [0xFE, 0xFF]) || body.starts(with: [0xFF, 0xFE]) {
            throw XMLProblem(description: "it is UTF-16; only UTF-8, ISO-8859-1 and windows-1252 are read")
        }
        // The declaration is ASCII in every encoding read here.
        let head = String(decoding: body.prefix(200).prefix { $0 < 0x80 }, as: UTF8.self)
        let encoding = head.hasPrefix("<?xml") ? Self.declaredEncoding(head)?.lowercased() ?? "utf-8" : "utf-8"
        switch encoding {
        case "utf-8", "utf8", "us-ascii", "ascii":
            var scalars: [Unicode.Scalar] = []
            var decoder = UTF8()
            var iterator = body.makeIterator()
            loop: while true {
                switch decoder.decode(&iterator) {
                case .scalarValue(let scalar): scalars.append(scalar)
                case .emptyInput: break loop
                case .error: throw XMLProblem(description: "it is not UTF-8, and says it is (byte \(scalars.count + 1))")
                }
            }
            return scalars
        case "iso-8859-1", "latin1", "latin-1", "iso_8859-1":
            return body.map { Unicode.Scalar($0) }
        case "windows-1252", "cp1252":
            return body.map { byte in (0x80...0x9F).contains(byte) ? windows1252[Int(byte) - 0x80] : Unicode.Scalar(byte) }
        default:
            throw XMLProblem(description: "its encoding \(encoding.debugDescription) is not read (UTF-8, ISO-8859-1 and windows-1252 are)")
        }
    }

    private static func declaredEncoding(_ head: String) -> String? {
        guard let start = head.firstRange(of: "encoding=") else { return nil }
        let rest = head[start.upperBound...]
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        return String(rest.dropFirst().prefix { $0 != quote })
    }

    /// windows-1252's 0x80 to 0x9F (the rest is ISO-8859-1); its five holes as U+FFFD.
    private static let windows1252: [Unicode.Scalar] = [
        0x20AC, 0xFFFD, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0xFFFD, 0x017D, 0xFFFD,
        0xFFFD, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0xFFFD, 0x017E, 0x0178
    ].map { Unicode.Scalar(UInt32($0)) ?? "\u{FFFD}" }

    // MARK: Reading

    private func place(_ at: Int) -> String {
        var line = 1, column = 1
        for scalar in scalars[..<min(at, scalars.count)] {
            if scalar == "\n" { line += 1; column = 1 } else { column += 1 }
        }
        return "line \(line), column \(column)"
    }

    private func fail(_ what: String, at: Int? = nil) -> XMLProblem { XMLProblem(description: "\(place(at ?? position)): \(what)") }

    private func starts(with text: String) -> Bool {
        var index = position
        for scalar in text.unicodeScalars {
            guard index < scalars.count, scalars[index] == scalar else { return false }
            index += 1
        }
        return true
    }

    private mutating func skip(past end: String, what: String) throws(XMLProblem) {
        while position < scalars.count {
            if starts(with: end) { position += end.unicodeScalars.count; return }
            position += 1
        }
        throw fail("\(what) is not closed with \(end)")
    }

    private mutating func skipSpace() {
        while position < scalars.count, scalars[position].properties.isWhitespace { position += 1 }
    }

    /// Declarations, comments, instructions and a DOCTYPE before the root, then the root.
    private mutating func root() throws(XMLProblem) -> XMLElement {
        while true {
            skipSpace()
            if starts(with: "<?") {
                try skip(past: "?>", what: "a processing instruction")
            } else if starts(with: "<!--") {
                try skip(past: "-->", what: "a comment")
            } else if starts(with: "<!DOCTYPE") {
                try skipDoctype()
            } else if starts(with: "<") {
                break
            } else {
                throw fail(position >= scalars.count ? "there is no element in it" : "this is not XML (it does not start with an element)")
            }
        }
        let root = try element(depth: 1)
        return root
    }

    private mutating func skipDoctype() throws(XMLProblem) {
        var depth = 0
        while position < scalars.count {
            switch scalars[position] {
            case "[": depth += 1
            case "]": depth -= 1
            case ">" where depth <= 0: position += 1; return
            default: break
            }
            position += 1
        }
        throw fail("the DOCTYPE is not closed")
    }

    private mutating func name() throws(XMLProblem) -> String {
        let start = position
        while position < scalars.count {
            let scalar = scalars[position]
            if scalar.properties.isWhitespace || "/>=\"'<".unicodeScalars.contains(scalar) { break }
            position += 1
        }
        guard position > start else { throw fail("a name was expected") }
        return String(String.UnicodeScalarView(scalars[start..<position]))
    }

    private static func split(_ qualified: String) -> (prefix: String, local: String) {
        guard let colon = qualified.firstIndex(of: ":") else { return ("", qualified) }
        return (String(qualified[..<colon]), String(qualified[qualified.index(after: colon)...]))
    }

    private mutating func element(depth: Int) throws(XMLProblem) -> XMLElement {
        guard depth <= Self.deepestNesting else {
            throw fail("elements are nested more than \(Self.deepestNesting) deep (a feed needs a few); the document is not read")
        }
        position += 1  // <
        let qualified = try name()
        let (prefix, local) = Self.split(qualified)
        var element = XMLElement(name: local, prefix: prefix)
        while true {
            skipSpace()
            guard position < scalars.count else { throw fail("<\(qualified)> is not closed") }
            if starts(with: "/>") { position += 2; return element }
            if scalars[position] == ">" { position += 1; break }
            let attribute = try name()
            skipSpace()
            guard position < scalars.count, scalars[position] == "=" else { throw fail("the attribute \(attribute) of <\(qualified)> has no value") }
            position += 1
            skipSpace()
            guard position < scalars.count, scalars[position] == "\"" || scalars[position] == "'" else {
                throw fail("the value of \(attribute) is not in quotes")
            }
            let quote = scalars[position]
            position += 1
            let start = position
            while position < scalars.count, scalars[position] != quote { position += 1 }
            guard position < scalars.count else { throw fail("the value of \(attribute) is not closed") }
            element.attributes[Self.split(attribute).local] = try unescape(scalars[start..<position])
            position += 1
        }
        var text: [Unicode.Scalar] = []
        func flush() throws(XMLProblem) {
            if !text.isEmpty { element.children.append(.text(try unescape(text[...]))); text = [] }
        }
        while position < scalars.count {
            if starts(with: "</") {
                try flush()
                let tag = position
                position += 2
                let closing = try name()
                guard closing == qualified else { throw fail("</\(closing)> closes <\(qualified)>", at: tag) }
                skipSpace()
                guard position < scalars.count, scalars[position] == ">" else { throw fail("</\(closing) is not closed with >") }
                position += 1
                return element
            } else if starts(with: "<![CDATA[") {
                try flush()
                position += 9
                let start = position
                try skip(past: "]]>", what: "a CDATA section")
                element.children.append(.text(String(String.UnicodeScalarView(scalars[start..<(position - 3)]))))
            } else if starts(with: "<!--") {
                try skip(past: "-->", what: "a comment")
            } else if starts(with: "<?") {
                try skip(past: "?>", what: "a processing instruction")
            } else if scalars[position] == "<" {
                try flush()
                element.children.append(.element(try self.element(depth: depth + 1)))
            } else {
                text.append(scalars[position])
                position += 1
            }
        }
        throw fail("<\(qualified)> is not closed")
    }

    /// `&amp;` and the rest; an entity a DTD would define (`&nbsp;` in some feeds) stays as written.
    private func unescape(_ text: ArraySlice<Unicode.Scalar>) throws(XMLProblem) -> String {
        var output = String.UnicodeScalarView()
        var index = text.startIndex
        while index < text.endIndex {
            let scalar = text[index]
            guard scalar == "&", let end = text[index...].prefix(12).firstIndex(of: ";") else {
                output.append(scalar)
                index += 1
                continue
            }
            let entity = String(String.UnicodeScalarView(text[(index + 1)..<end]))
            let named: [String: Unicode.Scalar] = ["lt": "<", "gt": ">", "amp": "&", "quot": "\"", "apos": "'", "nbsp": "\u{A0}"]
            if let replacement = named[entity] {
                output.append(replacement)
            } else if entity.hasPrefix("#x") || entity.hasPrefix("#X"), let value = UInt32(entity.dropFirst(2), radix: 16),
                let character = Unicode.Scalar(value)
            {
                output.append(character)
            } else if entity.hasPrefix("#"), let value = UInt32(entity.dropFirst()), let character = Unicode.Scalar(value) {
                output.append(character)
            } else {
                output.append(contentsOf: text[index...end])
            }
            index = end + 1
        }
        return String(output)
    }
}

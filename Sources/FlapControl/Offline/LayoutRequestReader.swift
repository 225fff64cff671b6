/// Reads a plain `--jsonl` request straight from its bytes, without JSONDecoder, which spent
/// three times as long as the layout itself. Only what it fully understands is read here: an
/// object of the known fields, each once, with values of their usual types. Anything else
/// (another field, a duplicate, a number with a fraction, a control character, bad JSON) gives
/// nil, and the caller hands the line to JSONDecoder, which reads it or says what is wrong, so
/// answers stay exactly as they were.
struct LayoutRequestReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var at = 0

    static func read(_ line: String) -> LayoutRequest? {
        var line = line, request = LayoutRequest(text: "")
        return line.withUTF8 { read($0, into: &request) } ? request : nil
    }

    /// Reads a request from a line's bytes, which must be valid UTF-8, into `request` (a fresh
    /// one); false if it is not ours to read. (Filled in place: returned as an optional, the
    /// request's fields were copied about three times.)
    static func read(_ line: UnsafeBufferPointer<UInt8>, into request: inout LayoutRequest) -> Bool {
        var reader = LayoutRequestReader(bytes: line)
        return reader.request(into: &request)
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    private mutating func request(into request: inout LayoutRequest) -> Bool {
        var seen: Field = []  // the option set itself: a Set of them allocated on every request
        skipSpace()
        guard take(UInt8(ascii: "{")) else { return false }
        skipSpace()
        if !take(UInt8(ascii: "}")) {
            repeat {
                skipSpace()
                guard let key = field(), seen.insert(key).inserted else { return false }
                skipSpace()
                guard take(UInt8(ascii: ":")) else { return false }
                skipSpace()
                guard value(for: key, into: &request) else { return false }
                skipSpace()
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "}")) else { return false }
        }
        skipSpace()
        return at == bytes.count && seen.contains(.text)
    }

    /// The request's fields, as bits of a set.
    struct Field: OptionSet, Hashable {
        let rawValue: Int
        static let text = Field(rawValue: 1), align = Field(rawValue: 2), valign = Field(rawValue: 4), margin = Field(rawValue: 8)
        static let maxRows = Field(rawValue: 16), columns = Field(rawValue: 32), fill = Field(rawValue: 64)
        static let breaks = Field(rawValue: 128), substitutions = Field(rawValue: 256)
    }

    /// A key: one of the fields, written plainly (no escapes), else nil.
    private mutating func field() -> Field? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = at
        while let b = peek, b != UInt8(ascii: "\""), b != UInt8(ascii: "\\") { at += 1 }
        guard take(UInt8(ascii: "\"")) else { return nil }
        let key = UnsafeBufferPointer(rebasing: bytes[start..<(at - 1)])
        // By first letter, then the name's bytes: looked up once per field of every request.
        func named(_ name: StaticString, _ field: Field) -> Field? {
            UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount).elementsEqual(key) ? field : nil
        }
        switch key.first {
        case UInt8(ascii: "t"): return named("text", .text)
        case UInt8(ascii: "a"): return named("align", .align)
        case UInt8(ascii: "v"): return named("valign", .valign)
        case UInt8(ascii: "m"): return named("margin", .margin) ?? named("maxRows", .maxRows)
        case UInt8(ascii: "c"): return named("columns", .columns)
        case UInt8(ascii: "f"): return named("fill", .fill)
        case UInt8(ascii: "b"): return named("breaks", .breaks)
        case UInt8(ascii: "s"): return named("substitutions", .substitutions)
        default: return nil
        }
    }

    private mutating func value(for key: Field, into request: inout LayoutRequest) -> Bool {
        switch key {
        case .text: guard let text = string() else { return false }; request.text = text
        case .align: guard let align = string() else { return false }; request.align = align
        case .valign:
            if literal("null") { request.valign = .some(nil) } else if let valign = string() { request.valign = valign } else { return false }
        case .margin: guard let n = integer() else { return false }; request.margin = n
        case .maxRows: guard let n = integer() else { return false }; request.maxRows = n
        case .columns: guard let n = integer() else { return false }; request.columns = n
        case .fill: guard let code = code() else { return false }; request.fill = code
        case .breaks:
            guard take(UInt8(ascii: "[")) else { return false }
            var codes: [CodeValue] = []
            skipSpace()
            if !take(UInt8(ascii: "]")) {
                repeat {
                    skipSpace()
                    guard let code = code() else { return false }
                    codes.append(code)
                    skipSpace()
                } while take(UInt8(ascii: ","))
                guard take(UInt8(ascii: "]")) else { return false }
            }
            request.breaks = codes
        case .substitutions:
            if literal("true") { request.substitutions = true } else if literal("false") { request.substitutions = false } else { return false }
        default: return false
        }
        return true
    }

    private mutating func code() -> CodeValue? {
        if let n = integer() { return CodeValue(number: n) }
        return string().map(CodeValue.init(text:))
    }

    /// A whole number with no fraction or exponent, as JSONDecoder reads into an Int.
    private mutating func integer() -> Int? {
        let start = at
        if peek == UInt8(ascii: "-") { at += 1 }
        let digits = at
        while let b = peek, b >= UInt8(ascii: "0"), b <= UInt8(ascii: "9") { at += 1 }
        // No digits, a leading zero before more digits, or a fraction or exponent: not ours.
        guard at > digits, !(bytes[digits] == UInt8(ascii: "0") && at - digits > 1),
            peek != UInt8(ascii: "."), peek != UInt8(ascii: "e"), peek != UInt8(ascii: "E"),
            let value = Self.decimal(bytes[digits..<at], negative: digits > start)
        else {
            at = start
            return nil
        }
        return value
    }

    /// ASCII digits as an Int, nil if it does not fit (JSONDecoder then says so).
    private static func decimal(_ digits: Slice<UnsafeBufferPointer<UInt8>>, negative: Bool) -> Int? {
        var value = 0
        for digit in digits {
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let (next, o2) =
                negative
                ? times10.subtractingReportingOverflow(Int(digit - UInt8(ascii: "0")))
                : times10.addingReportingOverflow(Int(digit - UInt8(ascii: "0")))
            guard !o1, !o2 else { return nil }
            value = next
        }
        return value
    }

    /// A JSON string, its escapes decoded; nil for anything JSONDecoder might read differently.
    private mutating func string() -> String? {
        let start = at
        guard take(UInt8(ascii: "\"")) else { return nil }
        let contentStart = at
        while let b = peek, b != UInt8(ascii: "\""), b != UInt8(ascii: "\\") {
            guard b >= 0x20 else { at = start; return nil }
            at += 1
        }
        if peek == UInt8(ascii: "\"") {
            at += 1
            return String(decoding: bytes[contentStart..<(at - 1)], as: UTF8.self)
        }
        // With escapes: the text decoded into UTF-8 bytes, made a String once at the end.
        var text = Array(bytes[contentStart..<at])
        while let b = peek {
            if b == UInt8(ascii: "\"") {
                at += 1
                return String(decoding: text, as: UTF8.self)
            }
            guard b >= 0x20 else { break }
            at += 1
            guard b == UInt8(ascii: "\\") else { text.append(b); continue }
            guard let escaped = peek else { break }
            at += 1
            switch escaped {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(escaped)
            case UInt8(ascii: "b"): text.append(0x08)
            case UInt8(ascii: "f"): text.append(0x0C)
            case UInt8(ascii: "n"): text.append(0x0A)
            case UInt8(ascii: "r"): text.append(0x0D)
            case UInt8(ascii: "t"): text.append(0x09)
            case UInt8(ascii: "u"):
                guard let high = hex4() else { at = start; return nil }
                let value: UInt32
                if (0xD800...0xDBFF).contains(high) {
                    // A surrogate pair, or not ours.
                    guard take(UInt8(ascii: "\\")), take(UInt8(ascii: "u")), let low = hex4(), (0xDC00...0xDFFF).contains(low) else {
                        at = start
                        return nil
                    }
                    value = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
                } else {
                    value = high
                }
                guard let scalar = Unicode.Scalar(value) else { at = start; return nil }
                text.append(contentsOf: scalar.utf8)
            default:
                at = start
                return nil
            }
        }
        at = start
        return nil
    }

    private mutating func hex4() -> UInt32? {
        guard at + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for b in bytes[at..<(at + 4)] {
            guard let digit = Self.hexValue(b) else { return nil }
            value = value << 4 | digit
        }
        at += 4
        return value
    }

    private static func hexValue(_ b: UInt8) -> UInt32? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(b - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(b - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(b - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    private mutating func literal(_ word: String) -> Bool {
        let count = word.utf8.count
        guard at + count <= bytes.count, bytes[at..<(at + count)].elementsEqual(word.utf8) else { return false }
        at += count
        return true
    }

    private var peek: UInt8? { at < bytes.count ? bytes[at] : nil }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard peek == byte else { return false }
        at += 1
        return true
    }

    private mutating func skipSpace() {
        while let b = peek, b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D { at += 1 }
    }
}

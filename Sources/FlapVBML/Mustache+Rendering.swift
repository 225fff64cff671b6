import FlapJSON
import FlapPrimitives

extension Mustache {
    // MARK: Rendering

    /// The text rendered so far, and what it has cost.
    struct Output {
        var text = ""
        var passes = 0

        mutating func append(_ more: String) throws(Problem) {
            text += more
            guard text.utf8.count <= Budget.outputBytes else {
                throw Problem(
                    description: "the template renders to more than \(Budget.outputBytes / 1024) KiB (a board shows a few hundred characters)")
            }
        }

        mutating func pass() throws(Problem) {
            passes += 1
            guard passes <= Budget.sectionPasses else {
                throw Problem(
                    description: "the template's sections repeat more than \(Budget.sectionPasses) times (sections over long lists inside each other)"
                )
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
        "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;", "/": "&#x2F;", "`": "&#x60;", "=": "&#x3D;"
    ]
}

/// Writes a ``TOMLTable`` as TOML a person can read and ``TOMLParser`` reads back to the same
/// table: a table's plain keys first, then its tables (`[a.b]`), then its arrays of tables
/// (`[[a.c]]`), each in the order its keys were written.
public enum TOMLWriter {
    /// The document for `table`, ending in a newline.
    public static func document(_ table: TOMLTable) -> String {
        var lines: [String] = []
        write(table, at: [], into: &lines)
        // A blank line starts each table after the first line, as people write them.
        return lines.drop { $0.isEmpty }.joined(separator: "\n") + "\n"
    }

    private static func write(_ table: TOMLTable, at path: [String], into lines: inout [String]) {
        for key in table.keys {
            guard let value = table[key], !isHeader(value) else { continue }
            lines.append("\(self.key(key)) = \(inline(value))")
        }
        for key in table.keys {
            guard case .table(let sub) = table[key] else { continue }
            lines += ["", "[\(dotted(path + [key]))]"]
            write(sub, at: path + [key], into: &lines)
        }
        for key in table.keys {
            guard case .array(let elements) = table[key], isHeader(.array(elements)) else { continue }
            for element in elements {
                guard let sub = element.table else { continue }
                lines += ["", "[[\(dotted(path + [key]))]]"]
                write(sub, at: path + [key], into: &lines)
            }
        }
    }

    /// Whether `value` is written under a header of its own: a table, or an array of tables.
    private static func isHeader(_ value: TOMLValue) -> Bool {
        switch value {
        case .table: true
        case .array(let elements): !elements.isEmpty && elements.allSatisfy { $0.table != nil }
        default: false
        }
    }

    /// `value` as it is written after `key = `.
    public static func inline(_ value: TOMLValue) -> String {
        switch value {
        case .string(let text): quoted(text)
        case .integer(let number): String(number)
        case .float(let number): float(number)
        case .bool(let flag): flag ? "true" : "false"
        case .dateTime(let text): text
        case .array(let elements): "[" + elements.map(inline).joined(separator: ", ") + "]"
        case .table(let table):
            table.keys.isEmpty
                ? "{}" : "{ " + table.keys.compactMap { key in table[key].map { "\(self.key(key)) = \(inline($0))" } }.joined(separator: ", ") + " }"
        }
    }

    private static func float(_ number: Double) -> String {
        if number.isNaN { return "nan" }
        if number.isInfinite { return number < 0 ? "-inf" : "inf" }
        let text = "\(number)"
        // Swift writes 1e+20 and 3.0; TOML needs a dot or an exponent, and takes both forms.
        return text.contains(".") || text.contains("e") ? text : text + ".0"
    }

    private static func dotted(_ path: [String]) -> String { path.map(key).joined(separator: ".") }

    /// A bare key when TOML allows one (`A-Z a-z 0-9 _ -`), else a quoted one.
    static func key(_ name: String) -> String {
        let bare = !name.isEmpty && name.unicodeScalars.allSatisfy { $0.isASCII && (isAlphanumeric($0) || $0 == "_" || $0 == "-") }
        return bare ? name : quoted(name)
    }

    private static func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
    }

    /// A basic string, with the escapes TOML requires and control characters as `\uXXXX`.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

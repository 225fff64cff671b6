/// The few pieces of Python's string semantics that the `vesta` library's behaviour rests on,
/// so that layout gives the same rows and the same error texts for the same input.
enum PythonText {
    /// `str.splitlines()`: splits at \n, \r, \r\n, \v, \f, \x1c–\x1e, \x85, U+2028, U+2029;
    /// a trailing line break does not start another line, and "" has no lines.
    static func splitLines(_ scalars: [Unicode.Scalar]) -> [ArraySlice<Unicode.Scalar>] {
        var lines: [ArraySlice<Unicode.Scalar>] = []
        var start = 0
        var i = 0
        while i < scalars.count {
            let s = scalars[i]
            if isLineBoundary(s) {
                lines.append(scalars[start..<i])
                if s == "\r", i + 1 < scalars.count, scalars[i + 1] == "\n" { i += 1 }
                start = i + 1
            }
            i += 1
        }
        if start < scalars.count { lines.append(scalars[start..<scalars.count]) }
        return lines
    }

    static func isLineBoundary(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x0A, 0x0B, 0x0C, 0x0D, 0x1C, 0x1D, 0x1E, 0x85, 0x2028, 0x2029: true
        default: false
        }
    }

    /// `str.upper()` applied scalar by scalar (full case mapping: ß becomes SS).
    static func uppercased(_ scalars: ArraySlice<Unicode.Scalar>) -> [Unicode.Scalar] {
        var out: [Unicode.Scalar] = []
        out.reserveCapacity(scalars.count)
        for s in scalars {
            if s.value < 128 {
                out.append(s.value >= 0x61 && s.value <= 0x7A ? Unicode.Scalar(UInt8(s.value - 32)) : s)
            } else if s.properties.changesWhenUppercased {
                out.append(contentsOf: s.properties.uppercaseMapping.unicodeScalars)
            } else {
                out.append(s)
            }
        }
        return out
    }

    /// `int(text)` for base 10: surrounding white space, an optional sign, decimal digits of any
    /// script, single underscores between digits. Nil where Python raises.
    static func int(_ text: ArraySlice<Unicode.Scalar>) -> Int? {
        var chars = Array(text)
        while let first = chars.first, isPythonSpace(first) { chars.removeFirst() }
        while let last = chars.last, isPythonSpace(last) { chars.removeLast() }
        var negative = false
        if let sign = chars.first, sign == "+" || sign == "-" {
            negative = sign == "-"
            chars.removeFirst()
        }
        guard !chars.isEmpty else { return nil }
        var value = 0
        var previousWasDigit = false
        for (index, c) in chars.enumerated() {
            if c == "_" {
                guard previousWasDigit, index + 1 < chars.count else { return nil }
                previousWasDigit = false
                continue
            }
            guard let digit = decimalDigit(c) else { return nil }
            value = value * 10 + digit
            previousWasDigit = true
        }
        guard previousWasDigit else { return nil }
        return negative ? -value : value
    }

    static func decimalDigit(_ s: Unicode.Scalar) -> Int? {
        if s.value >= 0x30 && s.value <= 0x39 { return Int(s.value - 0x30) }
        guard s.properties.numericType == .decimal, let v = s.properties.numericValue else { return nil }
        return Int(v)
    }

    static func isPythonSpace(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x09...0x0D, 0x1C...0x20: return true
        default: return s.value > 127 && s.properties.isWhitespace
        }
    }

    /// `repr(text)` as Python prints a str: single quotes unless the text holds ' and no ",
    /// escapes for backslash, the quote, \t \n \r and other unprintable characters.
    static func repr(_ scalars: [Unicode.Scalar]) -> String {
        let quote: Unicode.Scalar = scalars.contains("'") && !scalars.contains("\"") ? "\"" : "'"
        var out = String(quote)
        for s in scalars {
            switch s {
            case quote, "\\": out += "\\" + String(s)
            case "\t": out += "\\t"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            default:
                if isPrintable(s) {
                    out.unicodeScalars.append(s)
                } else if s.value < 0x100 {
                    out += "\\x" + hex(s.value, width: 2)
                } else if s.value < 0x10000 {
                    out += "\\u" + hex(s.value, width: 4)
                } else {
                    out += "\\U" + hex(s.value, width: 8)
                }
            }
        }
        out.unicodeScalars.append(quote)
        return out
    }

    /// Python's `str.isprintable()` for one character: not in categories Cc, Cf, Cs, Co, Cn,
    /// Zl, Zp, Zs, except the ASCII space.
    static func isPrintable(_ s: Unicode.Scalar) -> Bool {
        if s == " " { return true }
        switch s.properties.generalCategory {
        case .control, .format, .surrogate, .privateUse, .unassigned,
            .lineSeparator, .paragraphSeparator, .spaceSeparator:
            return false
        default:
            return true
        }
    }

    private static func hex(_ value: UInt32, width: Int) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

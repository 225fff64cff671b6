extension TOMLParser {
    // MARK: Strings

    mutating func basicString() throws(TOMLSyntaxError) -> String {
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

    mutating func multilineBasicString() throws(TOMLSyntaxError) -> String {
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

    mutating func literalString() throws(TOMLSyntaxError) -> String {
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

    mutating func multilineLiteralString() throws(TOMLSyntaxError) -> String {
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

    mutating func escape() throws(TOMLSyntaxError) -> Unicode.Scalar {
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
}

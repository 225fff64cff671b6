import FlapPrimitives

/// One iCalendar content line (RFC 5545 §3.1): `DTSTART;TZID=Europe/Berlin:20261126T090000`,
/// unfolded, its name upper-cased, its parameters read (quoted values too), its value as written.
struct ContentLine: Sendable, Equatable {
    var name: String
    var parameters: [String: String]
    var value: String
    /// Its line in the file (the first of a folded line), for errors.
    var line: Int

    /// The file's lines, unfolded: a line starting with a space or tab continues the one before.
    /// Lines end with CRLF (RFC 5545 §3.1, as Google, iCloud and Outlook serve them), LF or CR.
    /// Unfolded as bytes before they are read as UTF-8, since a long line may be folded inside a
    /// character's bytes; a byte-order mark is skipped.
    static func lines(_ bytes: [UInt8]) throws(SourceProblem) -> [ContentLine] {
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        var physical: [(Int, [UInt8])] = []
        for (index, line) in LineBreaks.lines(of: body).enumerated() {
            if let first = line.first, first == 0x20 || first == 0x09, !physical.isEmpty {
                physical[physical.count - 1].1 += line.dropFirst()
            } else if !line.isEmpty {
                physical.append((index + 1, Array(line)))
            }
        }
        var lines: [ContentLine] = []
        lines.reserveCapacity(physical.count)
        for (number, text) in physical {
            lines.append(try ContentLine(String(decoding: text, as: UTF8.self), line: number))
        }
        return lines
    }

    init(name: String, parameters: [String: String] = [:], value: String, line: Int = 0) {
        self.name = name
        self.parameters = parameters
        self.value = value
        self.line = line
    }

    init(_ text: String, line: Int) throws(SourceProblem) {
        self.line = line
        var name = "", parameters: [String: String] = [:]
        var index = text.startIndex
        while index < text.endIndex, text[index] != ";", text[index] != ":" { name.append(text[index]); index = text.index(after: index) }
        guard index < text.endIndex, !name.isEmpty else {
            throw SourceProblem("line \(line): \(String(text.prefix(40)).debugDescription) is not a NAME:value line")
        }
        while index < text.endIndex, text[index] == ";" {
            index = text.index(after: index)
            var key = ""
            while index < text.endIndex, text[index] != "=", text[index] != ":", text[index] != ";" {
                key.append(text[index]); index = text.index(after: index)
            }
            guard index < text.endIndex, text[index] == "=" else { throw SourceProblem("line \(line): the parameter \(key) of \(name) has no value") }
            index = text.index(after: index)
            var value = ""
            if index < text.endIndex, text[index] == "\"" {
                index = text.index(after: index)
                while index < text.endIndex, text[index] != "\"" { value.append(text[index]); index = text.index(after: index) }
                guard index < text.endIndex else { throw SourceProblem("line \(line): a quoted parameter of \(name) is not closed") }
                index = text.index(after: index)
            }
            // Further values of a list (MEMBER="a","b") and unquoted values run to ; or :.
            while index < text.endIndex, text[index] != ";", text[index] != ":" { value.append(text[index]); index = text.index(after: index) }
            parameters[key.uppercased()] = value
        }
        guard index < text.endIndex, text[index] == ":" else { throw SourceProblem("line \(line): \(name) has no value after its parameters") }
        self.name = name.uppercased()
        self.parameters = parameters
        value = String(text[text.index(after: index)...])
    }

    /// A TEXT value with its escapes read: `\n`, `\,`, `\;`, `\\`.
    var text: String {
        var output = "", escaped = false
        for character in value {
            if escaped {
                output.append(character == "n" || character == "N" ? "\n" : character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                output.append(character)
            }
        }
        return output
    }
}

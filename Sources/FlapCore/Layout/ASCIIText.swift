/// The codes of plain ASCII text (and °), read straight from its UTF-8 bytes: most messages are ASCII,
/// and the general path (Unicode scalars copied into arrays, uppercased line by line, Python's
/// rules for escapes) cost several times the layout itself. It takes only what it is sure of;
/// anything else (another byte over 127, a character the board lacks, an escape other than one or two
/// digits naming a code) makes it give up, and the general path lays the text out with its
/// substitutions, warnings and errors, so the result is the same either way.
enum ASCIIText {
    /// Gives each line's codes to `sink` in turn; false when the text needs the general path or
    /// the sink refused a line.
    static func readLines<Sink: LineSink>(of text: String, into sink: inout Sink) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            // No byte gives more than one code, so a line fits in as many codes as the text has bytes.
            withUnsafeTemporaryAllocation(of: CharacterCode.self, capacity: max(bytes.count, 1)) { line in
                byteMeanings.withUnsafeBufferPointer { table in
                    readLines(bytes, table: table, line: line, into: &sink)
                }
            }
        }
    }

    /// Every line's codes one after another, and where each line ends; nil to take the general path.
    static func codes(of text: String) -> (codes: [CharacterCode], lineEnds: [Int])? {
        struct Collector: LineSink {
            var codes: [CharacterCode] = [], lineEnds: [Int] = []
            mutating func take(_ line: UnsafeBufferPointer<CharacterCode>) -> Bool {
                codes += line
                lineEnds.append(codes.count)
                return true
            }
        }
        var collector = Collector()
        return readLines(of: text, into: &collector) ? (collector.codes, collector.lineEnds) : nil
    }

    // Written in place, one table look-up a byte, the table taken once: per byte, an append's
    // checks and a global's look-up cost more than the rest.
    private static func readLines(
        _ bytes: UnsafeBufferPointer<UInt8>, table: UnsafeBufferPointer<Int8>,
        line out: UnsafeMutableBufferPointer<CharacterCode>, into sink: inout some LineSink
    ) -> Bool {
        let count = bytes.count
        var n = 0
        // Where the current line ends, found at its first escape (escapes look no further).
        var lineEnd = -1
        var i = 0
        while i < count {
            let meaning = table[Int(bytes[i])]
            if meaning >= 0 {
                out[n] = CharacterCode(unchecked: UInt8(meaning))
                n += 1
                i += 1
                continue
            }
            switch meaning {
            case lineBoundary:
                // As Python's splitlines: \r\n is one break, and a break at the end starts no line.
                if bytes[i] == 0x0D, i + 1 < count, bytes[i + 1] == 0x0A { i += 1 }
                guard sink.take(UnsafeBufferPointer(rebasing: out[..<n])) else { return false }
                n = 0
                i += 1
            case openingBrace:
                if lineEnd < i { lineEnd = Self.lineEnd(bytes, from: i) }
                guard let (code, length) = escape(bytes, at: i, lineEnd: lineEnd) else { return false }
                out[n] = code
                n += 1
                i += length
            case degreeLead where i + 1 < count && bytes[i + 1] == 0xB0:
                // °, the one board character beyond ASCII, common in weather.
                out[n] = CharacterCode(unchecked: 62)
                n += 1
                i += 2
            default:
                return false
            }
        }
        if count > 0, !isLineBoundary(bytes[count - 1]) { return sink.take(UnsafeBufferPointer(rebasing: out[..<n])) }
        return true
    }

    /// What each byte is to the fast path: its code (uppercased: a → A), or one of the markers.
    private static let byteMeanings: [Int8] = (0...255).map { (byte: Int) -> Int8 in
        if byte < 128, isLineBoundary(UInt8(byte)) { return lineBoundary }
        if byte == Int(UInt8(ascii: "{")) { return openingBrace }
        if byte == 0xC2 { return degreeLead }
        guard byte < 128 else { return unreadable }
        let upper = byte >= 0x61 && byte <= 0x7A ? byte - 32 : byte
        let code = CharacterCode.asciiCodes[upper]
        return code >= 0 ? Int8(code) : unreadable
    }
    private static let unreadable: Int8 = -1, lineBoundary: Int8 = -2, openingBrace: Int8 = -3
    /// The first byte of ° in UTF-8 (and of other characters, which are unreadable).
    private static let degreeLead: Int8 = -4

    /// `{n}` or `{nn}` of ASCII digits naming a valid code, read as vesta reads escapes (the
    /// closing brace looked for after one digit first); nil for anything else.
    private static func escape(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, lineEnd: Int) -> (CharacterCode, Int)? {
        func digit(_ i: Int) -> Int? {
            let byte = bytes[i]
            return byte >= 0x30 && byte <= 0x39 ? Int(byte - 0x30) : nil
        }
        let closing = UInt8(ascii: "}")
        let value: Int, length: Int
        if lineEnd > index + 2, bytes[index + 2] == closing {
            guard let d = digit(index + 1) else { return nil }
            (value, length) = (d, 3)
        } else if lineEnd > index + 3, bytes[index + 3] == closing {
            guard let tens = digit(index + 1), let ones = digit(index + 2) else { return nil }
            (value, length) = (tens * 10 + ones, 4)
        } else {
            return nil
        }
        return CharacterCode(value).map { ($0, length) }
    }

    /// Where the line holding `start` ends.
    private static func lineEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var end = start
        while end < bytes.count, !isLineBoundary(bytes[end]) { end += 1 }
        return end
    }

    /// Python's line boundaries among ASCII: \n \v \f \r and \x1c–\x1e.
    private static func isLineBoundary(_ byte: UInt8) -> Bool {
        (0x0A...0x0D).contains(byte) || (0x1C...0x1E).contains(byte)
    }
}

/// Takes a text's lines of codes, one at a time.
protocol LineSink {
    /// False to stop reading.
    mutating func take(_ line: UnsafeBufferPointer<CharacterCode>) -> Bool
}

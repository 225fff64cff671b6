import FlapCore

/// Writes the little JSON flapctl prints by hand: faster than an encoder for a hundred thousand
/// small answers, and with the key order people read.
package struct JSONText {
    package private(set) var bytes: [UInt8] = []

    package init() {}

    package mutating func raw(_ text: String) { bytes.append(contentsOf: text.utf8) }

    /// Empties the text, keeping its buffer for the next.
    package mutating func clear() { bytes.removeAll(keepingCapacity: true) }

    package mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        // Most strings need no escape: then they go in at once.
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            bytes.append(contentsOf: text.utf8)
            return bytes.append(UInt8(ascii: "\""))
        }
        for unit in text.utf8 {
            switch unit {
            case UInt8(ascii: "\""): raw("\\\"")
            case UInt8(ascii: "\\"): raw("\\\\")
            case 0x0A: raw("\\n")
            case 0x0D: raw("\\r")
            case 0x09: raw("\\t")
            case 0..<0x20:
                let hex = String(unit, radix: 16)
                raw("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
            default: bytes.append(unit)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    package mutating func int(_ value: Int) {
        guard value >= 0 else { return raw(String(value)) }
        if value < 10 { return bytes.append(UInt8(ascii: "0") + UInt8(value)) }
        if value < 100 {
            bytes.append(UInt8(ascii: "0") + UInt8(value / 10))
            return bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
        }
        raw(String(value))
    }

    /// Milliseconds: whole numbers as integers, fractions to the microsecond.
    package mutating func milliseconds(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        let micros = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
        if micros % 1000 == 0 {
            int(Int(micros / 1000))
        } else {
            raw(String(Double(micros) / 1000))
        }
    }

    package mutating func array<T>(_ items: some Collection<T>, _ element: (inout JSONText, T) -> Void) {
        bytes.append(UInt8(ascii: "["))
        var first = true
        for item in items {
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            element(&self, item)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// Rows of codes: a board's worth of small numbers. Each code's digits and comma are one
    /// 4-byte store from a table, written straight into the buffer: digit by digit they were a
    /// fifth of a `--jsonl` run (and through `String(Int)`, half of it).
    package mutating func rows(_ layout: LaidOutText) {
        let columns = layout.columns
        // A code is at most two digits and a comma, each row adds its brackets, and the last
        // store may reach 1 byte further.
        let room = 3 + layout.rowCount * (columns * 3 + 2)
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: room))
        let end = bytes.withUnsafeMutableBytes { out in
            layout.codes.withUnsafeBufferPointer { codes in
                Self.codeTexts.withUnsafeBufferPointer { texts in
                    var n = start
                    out[n] = UInt8(ascii: "[")
                    n += 1
                    for r in 0..<layout.rowCount {
                        out[n] = UInt8(ascii: "[")
                        n += 1
                        for code in codes[(r * columns)..<((r + 1) * columns)] {
                            let text = texts[Int(code.rawValue)]
                            out.storeBytes(of: text, toByteOffset: n, as: UInt32.self)
                            n += Int(text >> 24)
                        }
                        // The last code's comma becomes the row's bracket (a row of none has no comma).
                        if columns > 0 { n -= 1 }
                        out[n] = UInt8(ascii: "]")
                        out[n + 1] = UInt8(ascii: ",")
                        n += 2
                    }
                    if layout.rowCount > 0 { n -= 1 }
                    out[n] = UInt8(ascii: "]")
                    return n + 1
                }
            }
        }
        bytes.removeLast(bytes.count - end)
    }

    /// For each code (they are at most 71): its decimal digits and a comma in the low bytes
    /// (little-endian, as they are stored), the count of those bytes in the top byte.
    private static let codeTexts: [UInt32] = (0..<100).map { (code: Int) -> UInt32 in
        let text = Array("\(code),".utf8)
        var packed = UInt32(text.count) << 24
        for (i, byte) in text.prefix(3).enumerated() { packed |= UInt32(byte) << (8 * i) }
        return packed
    }

    /// `"key":` — the caller writes the value.
    package mutating func key(_ name: String, first: Bool = false) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        string(name)
        bytes.append(UInt8(ascii: ":"))
    }
}

import FlapCore

/// Writes the little JSON flapctl prints by hand: faster than an encoder for a hundred thousand
/// small answers, and with the key order people read.
struct JSONText {
    private(set) var bytes: [UInt8] = []

    mutating func raw(_ text: String) { bytes.append(contentsOf: text.utf8) }

    mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
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

    mutating func int(_ value: Int) {
        guard value >= 0 else { return raw(String(value)) }
        if value < 10 { return bytes.append(UInt8(ascii: "0") + UInt8(value)) }
        if value < 100 {
            bytes.append(UInt8(ascii: "0") + UInt8(value / 10))
            return bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
        }
        raw(String(value))
    }

    /// Milliseconds: whole numbers as integers, fractions to the microsecond.
    mutating func milliseconds(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        let micros = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
        if micros % 1000 == 0 {
            int(Int(micros / 1000))
        } else {
            raw(String(Double(micros) / 1000))
        }
    }

    mutating func array<T>(_ items: some Collection<T>, _ element: (inout JSONText, T) -> Void) {
        bytes.append(UInt8(ascii: "["))
        var first = true
        for item in items {
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            element(&self, item)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// Rows of codes: a board's worth of small numbers, written digit by digit straight into
    /// the buffer (through `String(Int)` they were half of a `--jsonl` answer's time, and an
    /// append per byte, with its checks, most of the rest).
    mutating func rows(_ layout: LaidOutText) {
        let columns = layout.columns
        // A code is at most two digits and a comma; each row adds its brackets.
        let room = 2 + layout.rowCount * (columns * 3 + 2)
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: room))
        let end = bytes.withUnsafeMutableBufferPointer { out in
            layout.codes.withUnsafeBufferPointer { codes in
                var n = start
                func put(_ byte: UInt8) {
                    out[n] = byte
                    n += 1
                }
                put(UInt8(ascii: "["))
                for r in 0..<layout.rowCount {
                    if r > 0 { put(UInt8(ascii: ",")) }
                    put(UInt8(ascii: "["))
                    for c in 0..<columns {
                        if c > 0 { put(UInt8(ascii: ",")) }
                        let value = codes[r * columns + c].rawValue
                        if value >= 10 { put(UInt8(ascii: "0") + value / 10) }
                        put(UInt8(ascii: "0") + value % 10)
                    }
                    put(UInt8(ascii: "]"))
                }
                put(UInt8(ascii: "]"))
                return n
            }
        }
        bytes.removeLast(bytes.count - end)
    }

    /// `"key":` — the caller writes the value.
    mutating func key(_ name: String, first: Bool = false) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        string(name)
        bytes.append(UInt8(ascii: ":"))
    }
}

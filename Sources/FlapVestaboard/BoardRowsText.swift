/// A board's rows of codes as the outbox keeps them, `[[1,2],[3,4]]`, written and read without
/// `Codable`: every write to a board and every look at the queue reads them, and the encoder's
/// and decoder's way through them took more of flapd's time than the rest of a delivery.
enum BoardRowsText {
    static func text(_ rows: [[Int]]) -> String {
        var text = "["
        text.reserveCapacity(rows.reduce(2) { $0 + 3 * $1.count + 2 })
        for (index, row) in rows.enumerated() {
            if index > 0 { text += "," }
            text += "["
            for (column, code) in row.enumerated() {
                if column > 0 { text += "," }
                text += String(code)
            }
            text += "]"
        }
        return text + "]"
    }

    /// The rows of `text` as ``text(_:)`` writes them; nil for anything else (the caller then
    /// reads it as JSON, spaces and all).
    static func rows(_ text: String) -> [[Int]]? {
        var rows: [[Int]] = []
        var utf8 = text.utf8.makeIterator()
        guard utf8.next() == UInt8(ascii: "[") else { return nil }
        var next = utf8.next()
        if next == UInt8(ascii: "]") { return utf8.next() == nil ? [] : nil }
        while next == UInt8(ascii: "[") {
            var row: [Int] = []
            next = utf8.next()
            if next == UInt8(ascii: "]") {
                next = utf8.next()
            } else {
                while true {
                    var code = 0, digits = 0
                    var negative = false
                    if next == UInt8(ascii: "-") {
                        negative = true
                        next = utf8.next()
                    }
                    while let byte = next, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 9 {
                        code = code * 10 + Int(byte - UInt8(ascii: "0"))
                        digits += 1
                        next = utf8.next()
                    }
                    guard digits > 0 else { return nil }
                    row.append(negative ? -code : code)
                    if next == UInt8(ascii: ",") {
                        next = utf8.next()
                        continue
                    }
                    guard next == UInt8(ascii: "]") else { return nil }
                    next = utf8.next()
                    break
                }
            }
            rows.append(row)
            if next == UInt8(ascii: ",") {
                next = utf8.next()
                guard next == UInt8(ascii: "[") else { return nil }
            }
        }
        guard next == UInt8(ascii: "]"), utf8.next() == nil else { return nil }
        return rows
    }
}

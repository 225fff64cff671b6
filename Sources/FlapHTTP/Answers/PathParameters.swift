import Hummingbird

extension RequestContext {
    /// The path parameter `name`, percent-decoded once, as clients encode it (`encodeURIComponent`,
    /// curl, flapctl): `my%20phone` is the sender `my phone`. A malformed escape is left as sent.
    func parameter(_ name: String) -> String {
        let raw = parameters.get(name).map { String($0) } ?? ""
        return Self.percentDecoded(raw) ?? raw
    }

    /// `text` with each %XX replaced by its byte; nil when an escape is malformed or the bytes
    /// are not UTF-8.
    static func percentDecoded(_ text: String) -> String? {
        guard text.contains("%") else { return text }
        var bytes: [UInt8] = []
        var utf8 = text.utf8.makeIterator()
        while let byte = utf8.next() {
            guard byte == UInt8(ascii: "%") else { bytes.append(byte); continue }
            guard let high = utf8.next().flatMap(hexValue), let low = utf8.next().flatMap(hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

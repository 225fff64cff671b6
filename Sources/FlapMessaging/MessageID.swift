/// Ids for messages that come without one: a hash of what they say and where they came from,
/// so a redelivered or retained copy is the same message (and a duplicate), not a new one.
///
/// FNV-1a over two 64-bit lanes: stable across processes and versions, unlike `Hasher`, which
/// is seeded per process. Collisions need the same sender to craft them, which gains nothing.
public enum MessageID {
    public static func derive(source: String, sender: String, content: Content, createdAt: String?) -> String {
        var a: UInt64 = 0xcbf2_9ce4_8422_2325
        var b: UInt64 = 0x84222325_cbf29ce4
        func mix(_ text: String) {
            for byte in text.utf8 {
                a = (a ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
                b = (b ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 &+ 0x9E37_79B9
            }
            a = (a ^ 0xFF) &* 0x0000_0100_0000_01B3  // field separator
            b = (b ^ 0xFF) &* 0x0000_0100_0000_01B3
        }
        mix(source)
        mix(sender)
        switch content {
        case .text(let text): mix("text"); mix(text)
        case .codes(let rows): mix("codes"); mix(rows.map { $0.map(String.init).joined(separator: ",") }.joined(separator: ";"))
        case .pattern(let rows): mix("pattern"); mix(rows.map { $0.joined(separator: ",") }.joined(separator: ";"))
        }
        mix(createdAt ?? "")
        return "h-" + hex(a) + hex(b)
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

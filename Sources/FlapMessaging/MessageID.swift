import FlapVBML

/// Ids for messages that come without one, and what tells a copy of such a message from a new one.
///
/// An id is random (128 bits): it says nothing about who sent what, so a reader of the board who
/// sees a message's id cannot confirm a guess at its sender and text by hashing it.
///
/// A message without an id also carries a *repeat key*: a hash of its source, sender, content and
/// the `createdAt` it gave, kept in the inbox and never shown. The inbox takes a message whose
/// key equals its sender's current message as a copy of that message (an MQTT redelivery, a
/// client retrying), and any other as new (docs/messages.md).
public enum MessageID {
    /// A new id: `m-` and 32 hexadecimal digits from the system's random source.
    public static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        return "m-" + hex(generator.next()) + hex(generator.next())
    }

    /// The id `id` as `sender`'s own: `ID~SENDER` (kept as it is when it already says so). A
    /// member's chosen ids are always kept so, and anyone's that another sender's message has
    /// taken, so that a chosen id neither collides with another sender's message nor tells of one.
    public static func scoped(_ id: String, sender: String) -> String {
        id.hasSuffix("~" + sender) ? id : id + "~" + sender
    }

    /// FNV-1a over two 64-bit lanes: stable across processes and versions, unlike `Hasher`, which
    /// is seeded per process (the keys are stored). It is the function earlier versions made ids
    /// with, so a stored message's old `h-` id is its repeat key.
    public static func repeatKey(source: MessageSource, sender: String, content: Content, createdAt: String?, duration: Int? = nil) -> String {
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
        mix(source.rawValue)
        mix(sender)
        switch content {
        case .text(let text): mix("text"); mix(text)
        case .codes(let rows): mix("codes"); mix(rows.map { $0.map(String.init).joined(separator: ",") }.joined(separator: ";"))
        case .pattern(let rows): mix("pattern"); mix(rows.map { $0.joined(separator: ",") }.joined(separator: ";"))
        case .vbml(let document): mix("vbml"); mix(VBMLDocument.canonical(document))
        }
        mix(createdAt ?? "")
        // Only a temporary message mixes its duration in: persistent messages keep the keys stored before.
        if let duration { mix("duration \(duration)") }
        return "h-" + hex(a) + hex(b)
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

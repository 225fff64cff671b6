/// Characters a name or an id must not hold: control characters (Unicode Cc) and format
/// characters (Cf), which are invisible. A right-to-left override (U+202E) makes "mum‮txt.exe"
/// read as something else in a member list; a zero-width space makes two senders look alike.
/// The one format character kept is the zero-width joiner between two emoji (👩‍👧 is a family).
public enum InvisibleCharacters {
    /// What is wrong with `text`, naming the first such character and where (1-based, in
    /// Unicode scalars); nil when it has none.
    public static func problem(in text: String) -> String? {
        let scalars = Array(text.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            switch scalar.properties.generalCategory {
            case .control:
                return "must not hold control characters: \(code(scalar)) at position \(index + 1)"
            case .format:
                if scalar.value == 0x200D, index > 0, index + 1 < scalars.count,
                    scalars[index - 1].properties.isEmoji, scalars[index + 1].properties.isEmoji
                {
                    continue
                }
                let kind =
                    (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value) || scalar.value == 0x200E
                        || scalar.value == 0x200F
                    ? "a direction control, which changes how the text around it reads" : "an invisible formatting character"
                return "must not hold invisible characters: \(code(scalar)) at position \(index + 1) is \(kind)"
            default:
                continue
            }
        }
        return nil
    }

    /// `U+202E`.
    static func code(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}

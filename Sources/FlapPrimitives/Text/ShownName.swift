/// The rules of a name people give something that others read in a list or a terminal (a
/// member, the owner's name, a quick message): 1 to 40 characters as a person counts them, at
/// most 160 bytes of UTF-8 (forty characters heaped with combining marks would otherwise be
/// kilobytes), and nothing invisible (``InvisibleCharacters``: no control, format or direction
/// characters, which would clear a terminal or make two names look alike).
public enum ShownName {
    /// The most characters a name has.
    public static let longest = 40
    /// The most bytes a name takes in UTF-8.
    public static let largest = 160

    /// What is wrong with `name`, or nil.
    public static func problem(_ name: String) -> String? {
        if name.isEmpty { return "a name has 1 to \(longest) characters" }
        if name.count > longest { return "at most \(longest) characters, not \(name.count)" }
        if name.utf8.count > largest { return "at most \(largest) bytes of UTF-8, not \(name.utf8.count)" }
        return InvisibleCharacters.problem(in: name)
    }

    /// `name` as a person reads it, for telling whether two names are one: case folded,
    /// full-width forms as their ASCII letters, and Cyrillic and Greek letters that look like
    /// Latin ones (а, ο, Α) as those. "Alice", "ALICE", "Ａｌｉｃｅ" and "Аlice" (a Cyrillic А) are alike.
    public static func likeness(_ name: String) -> String {
        var folded = String.UnicodeScalarView()
        for scalar in name.lowercased().unicodeScalars {
            var value = scalar.value
            // FF01–FF5E are the full-width twins of 21–7E.
            if (0xFF01...0xFF5E).contains(value) { value -= 0xFEE0 }
            let narrow = Unicode.Scalar(value) ?? scalar
            folded.append(lookAlikes[narrow] ?? narrow)
        }
        return String(String(folded).drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }

    /// Lower-case Cyrillic and Greek letters drawn as a Latin letter in common fonts.
    static let lookAlikes: [Unicode.Scalar: Unicode.Scalar] = [
        "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c", "т": "t", "у": "y", "х": "x",
        "і": "i", "ї": "i", "ј": "j", "ѕ": "s", "ԁ": "d", "ԛ": "q", "ԝ": "w", "һ": "h", "ӏ": "l",
        "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t", "υ": "u", "χ": "x",
        "ζ": "z", "μ": "u"
    ]
}

/// The characters Vestaboard's renderer knows, as its table gives them: each code with the
/// characters that show as it, the first being the one a character is folded to. The renderer
/// reads text one UTF-16 unit at a time (it is JavaScript), so these rules are kept per unit:
/// that is how an emoji outside the table becomes two blanks there, and here.
enum VBMLCharacters {
    static let table: [(code: Int, characters: [String])] = [
        (
            0,
            [
                " ", "©", "®", "<", ">", "²", "†", "‡", "ˆ", "Þ", "þ", "µ", "¶", "*", "^", "¬", "«", "»", "›", "³", "¹", "€", "‹", "˜", "÷", "π", "∆",
                "√", "∫", "∞"
            ]
        ),
        (1, ["A", "a", "â", "à", "å", "á", "À", "Á", "Â", "Ã", "Å", "ã", "ä", "Ä", "∂", "œ", "æ", "Æ"]),
        (2, ["B", "b"]),
        (3, ["C", "c", "ç", "Ç", "¢", "ć", "Ć", "č", "Č"]),
        (4, ["D", "d", "Ð", "ð"]),
        (5, ["E", "e", "é", "ê", "ë", "è", "È", "É", "Ê", "Ë", "€", "£", "∑"]),
        (6, ["F", "f", "ƒ", "ſ"]),
        (7, ["G", "g", "ğ", "Ğ", "ģ", "Ģ", "ġ", "Ġ", "ĝ", "Ĝ"]),
        (8, ["H", "h", "ħ", "Ħ", "ĥ", "Ĥ"]),
        (9, ["I", "i", "í", "ï", "î", "ì", "Ì", "Í", "Î", "Ï", "|", "¡"]),
        (10, ["J", "j", "ĵ", "Ĵ", "į", "Į"]),
        (11, ["K", "k", "ķ", "Ķ", "ĸ"]),
        (12, ["L", "l", "£", "ł", "Ł", "ļ", "Ļ", "ĺ", "Ĺ", "ľ", "Ľ", "ŀ", "Ŀ"]),
        (13, ["M", "m"]),
        (14, ["N", "n", "ñ", "Ñ", "ń", "Ń", "ň", "Ň", "ņ", "Ņ"]),
        (15, ["O", "o", "ó", "ô", "ò", "Ò", "Ó", "Ô", "Õ", "Ø", "ð", "õ", "ø", "ö", "Ö"]),
        (16, ["P", "p", "Þ", "þ", "¶"]),
        (17, ["Q", "q"]),
        (18, ["R", "r", "ŕ", "Ŕ", "ř", "Ř", "ŗ", "Ŗ"]),
        (19, ["S", "s", "š", "Š", "§", "ś", "Ś", "ş", "Ş", "ș", "Ș"]),
        (20, ["T", "t", "ť", "Ť", "ţ", "Ţ", "ŧ", "Ŧ"]),
        (21, ["U", "u", "û", "ù", "ú", "Ù", "Ú", "Û", "µ", "ū", "Ū", "ů", "Ů", "ų", "Ų", "Ü"]),
        (22, ["V", "v", "Ʋ", "ʋ"]),
        (23, ["W", "w", "ŵ", "Ŵ", "ẁ", "Ẁ", "ẃ", "Ẃ", "ẅ", "Ẅ"]),
        (24, ["X", "x", "ẍ", "Ẍ"]),
        (25, ["Y", "y", "ý", "ÿ", "Ý", "ŷ", "Ŷ", "ỳ", "Ỳ", "ỹ", "Ỹ", "Ÿ"]),
        (26, ["Z", "z", "ž", "Ž", "ź", "Ź", "ż", "Ż"]),
        (27, ["1", "¹"]),
        (28, ["2", "²"]),
        (29, ["3", "³"]),
        (30, ["4"]),
        (31, ["5"]),
        (32, ["6"]),
        (33, ["7"]),
        (34, ["8"]),
        (35, ["9"]),
        (36, ["0"]),
        (37, ["!", "ǃ"]),
        (38, ["@"]),
        (39, ["#", "№"]),
        (40, ["$", "¢", "£", "¤", "¥", "₩", "₪", "₫", "€", "₹", "₺", "₽"]),
        (41, ["(", "[", "{", "⟨", "«"]),
        (42, [")", "]", "}", "⟩", "»"]),
        (44, ["-", "—", "–", "¯", "~", "_"]),
        (46, ["+", "±", "∓", "∔"]),
        (47, ["&"]),
        (48, ["=", "≠", "≈", "≡"]),
        (49, [";", ";", "；"]),
        (50, [":", "¦"]),
        (52, ["'", "‘", "’", "`", "´", "‚", "‛", "ʹ", "ʻ", "ʽ", "ʾ", "ʿ", "ˈ", "ˊ", "ˋ"]),
        (53, ["\"", "„", "“", "”", "¨", "˝", "ˮ", "˵", "˶", "‟", "\""]),
        (54, ["%", "‰", "‱"]),
        (55, [",", "¸", "‚", "，", "、", "､"]),
        (56, [".", "․", "‥", "…"]),
        (59, ["/", "\\", "⁄", "∕", "⧸", "⫻", "⫽", "⧵"]),
        (60, ["?", "¿"]),
        (62, ["°", "˚", "º", "¤", "•", "·", "∙", "∘", "⚬", "⦿", "⨀", "⨁", "⨂", "❤️", "🧡", "💛", "💚", "💙", "💜", "🖤", "🤍", "🤎", "❤"])
    ]

    /// Characters written as several (`½` → `1/2`, `ä` → `AE`), before anything else.
    static let spelledOut: [UInt16: [UInt16]] = Dictionary(
        uniqueKeysWithValues: [
            ("½", "1/2"), ("¼", "1/4"), ("¾", "3/4"), ("⅓", "1/3"), ("⅔", "2/3"), ("⅛", "1/8"), ("⅜", "3/8"), ("⅝", "5/8"),
            ("⅞", "7/8"), ("⅐", "1/7"), ("⅑", "1/9"), ("⅒", "1/10"), ("æ", "AE"), ("Æ", "AE"), ("ß", "SS"), ("œ", "OE"),
            ("Œ", "OE"), ("™", "TM"), ("ü", "UE"), ("Ä", "AE"), ("ä", "AE"), ("Ö", "OE"), ("ö", "OE"), ("Ü", "UE"),
            ("ẞ", "SS"), ("…", "...")
        ].map { (Array($0.0.utf16)[0], Array($0.1.utf16)) })

    /// Units kept as they are: each code's first character in both cases, the line break, the
    /// typographic quotes, braces, the colour squares (and the high surrogate they share with most
    /// emoji, and their low ones) and the heart.
    static let kept: Set<UInt16> = {
        var units = Set<UInt16>()
        for (_, characters) in table {
            for form in [characters[0].lowercased(), characters[0].uppercased()] where form.utf16.count == 1 { units.insert(Array(form.utf16)[0]) }
        }
        for extra in ["\n", "\u{201C}", "\u{2018}", "{", "}", "\u{2B1C}", "\u{2B1B}", "\u{2764}"] { units.insert(Array(extra.utf16)[0]) }
        units.formUnion([0xD83D, 0xDFE5, 0xDFE7, 0xDFE8, 0xDFE9, 0xDFE6, 0xDFEA])
        return units
    }()

    /// A unit the table lists, folded to its code's first character in lower case (the first
    /// code listing it wins, as in the renderer).
    static let folded: [UInt16: [UInt16]] = {
        var folds: [UInt16: [UInt16]] = [:]
        for (_, characters) in table {
            let first = Array(characters[0].lowercased().utf16)
            for character in characters where character.utf16.count == 1 {
                let unit = Array(character.utf16)[0]
                if folds[unit] == nil { folds[unit] = first }
            }
        }
        return folds
    }()

    /// The code of a unit (the last code listing it wins, as the renderer builds its lookup).
    static let codes: [UInt16: Int] = {
        var codes: [UInt16: Int] = [:]
        for (code, characters) in table {
            for character in characters where character.utf16.count == 1 { codes[Array(character.utf16)[0]] = code }
        }
        return codes
    }()

    /// The codes a board takes: those the renderer accepts in `{NN}`.
    static let valid: Set<Int> = Set(table.map(\.code)).union(63...71)

    /// Emoji the renderer turns into codes before anything else, in its order (the heart with
    /// its variation selector before the bare heart).
    static let emoji: [(String, String)] = [
        ("🟥", "{63}"), ("🟧", "{64}"), ("🟨", "{65}"), ("🟩", "{66}"), ("🟦", "{67}"), ("🟪", "{68}"), ("⬜", "{69}"), ("⬛", "{70}"),
        ("❤️", "{62}"), ("❤", "{62}"), ("🧡", "{62}"), ("💛", "{62}"), ("💚", "{62}"), ("💙", "{62}"), ("💜", "{62}"), ("🖤", "{62}"),
        ("🤍", "{62}"), ("🤎", "{62}"), ("ß", "SS")
    ]

    static func replacingEmoji(_ text: String) -> String {
        var units = Array(text.utf16)
        for (emoji, code) in emoji { units = replacing(Array(emoji.utf16), with: Array(code.utf16), in: units) }
        return String(decoding: units, as: UTF16.self)
    }

    static func replacing(_ target: [UInt16], with replacement: [UInt16], in units: [UInt16]) -> [UInt16] {
        var result: [UInt16] = []
        result.reserveCapacity(units.count)
        var index = 0
        while index < units.count {
            if units[index] == target[0], index + target.count <= units.count, units[index..<index + target.count].elementsEqual(target) {
                result += replacement
                index += target.count
            } else {
                result.append(units[index])
                index += 1
            }
        }
        return result
    }

    /// The renderer's sanitising, unit by unit: the variation selector dropped, spelled-out
    /// characters spelled out, kept ones kept, listed ones folded, anything else a space.
    static func sanitized(_ units: [UInt16]) -> [UInt16] {
        var result: [UInt16] = []
        result.reserveCapacity(units.count)
        for unit in units {
            if unit == 0xFE0F { continue }
            if let spelled = spelledOut[unit] { result += spelled; continue }
            if kept.contains(unit) { result.append(unit); continue }
            result += folded[unit] ?? [0x20]
        }
        return result
    }
}

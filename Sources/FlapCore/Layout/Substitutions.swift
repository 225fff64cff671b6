import FoundationEssentials

/// What layout shows for characters a board cannot: accents folded (É → E), typographic
/// marks made plain (“ ” → ", ‘ ’ → ', … → ...), emoji as their nearest rendition (🟥 and ❤️ →
/// a red tile, 👍 → OK; ``EmojiTable``), the hearts as code 62 on a board whose flap 62 is a
/// heart, and there `°` not at all (its code would show a heart).
///
/// Substitution only ever applies to a character the plain encoding rejects, so any text the
/// Python `vesta` library accepts is laid out exactly as vesta lays it out.
enum Substitutions {
    struct Replacement {
        /// The codes shown instead (may be empty: the character is dropped).
        var codes: [CharacterCode]
        /// How many scalars of the uppercased line it replaces.
        var consumed: Int
    }

    /// The replacement for the uppercased scalar at `index`, or nil when none makes sense.
    static func replacement(in upper: [Unicode.Scalar], at index: Int, flap62: Flap62 = .degree) -> Replacement? {
        let scalar = upper[index]
        var codes: [CharacterCode]
        if flap62 == .heart, EmojiTable.noteHearts.contains(scalar) {
            return Replacement(codes: [EmojiTable.noteHeart], consumed: 1 + modifiers(in: upper, after: index))
        } else if let table = table[scalar] {
            codes = table
        } else if isInvisible(scalar) {
            codes = []
        } else if let folded = fold(scalar) {
            codes = folded
        } else if flap62 == .heart, scalar == "°" {
            codes = []
        } else {
            return nil
        }
        // A degree sign (℃ is °C) would show a heart there.
        if flap62 == .heart { codes.removeAll { $0 == .degree } }
        return Replacement(codes: codes, consumed: 1 + modifiers(in: upper, after: index))
    }

    /// How many scalars after `index` belong to the character there: an emoji's presentation
    /// selector and skin tone.
    static func modifiers(in upper: [Unicode.Scalar], after index: Int) -> Int {
        var count = 0
        while index + 1 + count < upper.count, isVariationSelector(upper[index + 1 + count]) || isSkinTone(upper[index + 1 + count]) { count += 1 }
        return count
    }

    static func isSkinTone(_ s: Unicode.Scalar) -> Bool { (0x1F3FB...0x1F3FF).contains(s.value) }

    /// Characters the board shows nothing for: combining accents left over from decomposed
    /// text, zero-width joiners and spaces, a byte-order mark, variation selectors.
    static func isInvisible(_ s: Unicode.Scalar) -> Bool {
        switch s.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .spacingMark: return true
        default: break
        }
        switch s.value {
        case 0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF: return true
        default: return isVariationSelector(s) || isSkinTone(s)
        }
    }

    static func isVariationSelector(_ s: Unicode.Scalar) -> Bool {
        (0xFE00...0xFE0F).contains(s.value) || (0xE0100...0xE01EF).contains(s.value)
    }

    /// Compatibility decomposition with the marks dropped: É → E, Ｆ → F, ² → 2, ﬀ → FF.
    static func fold(_ s: Unicode.Scalar) -> [CharacterCode]? {
        foldTable[s.value]
    }

    /// `foldTableText` (FoldTable.swift, made with Foundation's decomposition) read once.
    static let foldTable: [UInt32: [CharacterCode]] = {
        var table: [UInt32: [CharacterCode]] = [:]
        for line in foldTableText.split(separator: "\n") {
            let fields = line.split(separator: "\t")
            guard fields.count == 2, let value = UInt32(fields[0], radix: 16) else { continue }
            table[value] = fields[1].unicodeScalars.compactMap { CharacterCode(character: $0 == "_" ? " " : $0) }
        }
        return table
    }()

    private static func codes(_ text: String) -> [CharacterCode] {
        text.unicodeScalars.map { CharacterCode(character: $0) ?? .blank }
    }

    /// Replacements that decomposition does not find. Keys are uppercase scalars.
    static let table: [Unicode.Scalar: [CharacterCode]] = {
        var table: [Unicode.Scalar: [CharacterCode]] = [:]
        func add(_ keys: String, _ replacement: [CharacterCode]) {
            for key in keys.unicodeScalars { table[key] = replacement }
        }
        add("\u{201C}\u{201D}\u{201E}\u{201F}\u{00AB}\u{00BB}\u{2033}\u{301D}\u{301E}", codes("\""))
        add("\u{2018}\u{2019}\u{201A}\u{201B}\u{2039}\u{203A}\u{0060}\u{00B4}\u{2032}", codes("'"))
        add("\u{2010}\u{2011}\u{2012}\u{2013}\u{2014}\u{2015}\u{2212}", codes("-"))
        add(
            "\u{0009}\u{00A0}\u{2000}\u{2001}\u{2002}\u{2003}\u{2004}\u{2005}\u{2006}\u{2007}\u{2008}\u{2009}\u{200A}\u{202F}\u{205F}\u{3000}",
            [.blank])
        add("\u{00A1}", codes("!"))
        add("\u{00BF}", codes("?"))
        add("\u{00BA}\u{02DA}", [.degree])
        add("\u{00C6}", codes("AE"))
        add("\u{0152}", codes("OE"))
        add("\u{00D8}", codes("O"))
        add("\u{0141}", codes("L"))
        add("\u{0110}\u{00D0}", codes("D"))
        add("\u{00DE}", codes("TH"))
        add("\u{1E9E}", codes("SS"))
        add("\u{0131}", codes("I"))
        for (key, entry) in EmojiTable.byKey { table[key] = entry.codes }
        return table
    }()
}

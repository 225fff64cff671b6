/// Turns one line of text into character codes, as the Python `vesta` library's `encode` does:
/// the line is uppercased, `{nn}` escapes give codes directly, anything else must be a board
/// character. With substitutions on, characters vesta would reject are replaced instead
/// (see ``Substitutions``), each replacement reported.
struct TextEncoder {
    var substitutions: Bool
    var unsupported = UnsupportedCharacters.refuse
    var flap62 = Flap62.degree

    init(substitutions: Bool) {
        self.substitutions = substitutions
    }

    init(options: LayoutOptions) {
        substitutions = options.substitutions
        unsupported = options.unsupported
        flap62 = options.flap62
    }

    /// Appends the codes of `line` to `codes`; `lineNumber` goes into errors and warnings.
    ///
    /// Positions are 1-based indexes into the uppercased line, as vesta counts them (they equal
    /// the original positions unless uppercasing lengthened the line, as ß → SS does).
    func encode(
        _ line: ArraySlice<Unicode.Scalar>, lineNumber: Int?,
        into codes: inout [CharacterCode], warnings: inout [LayoutWarning]
    ) throws(LayoutError) {
        let original = Array(line)
        let upper = PythonText.uppercased(line)
        var i = 0
        while i < upper.count {
            let c = upper[i]
            if c == "{" {
                let (code, length) = try escape(original, at: i, lineNumber: lineNumber)
                codes.append(code)
                i += length
            } else if let code = CharacterCode(character: c), code != .degree || flap62 == .degree {
                codes.append(code)
                i += 1
            } else if substitutions, let replacement = Substitutions.replacement(in: upper, at: i, flap62: flap62) {
                codes.append(contentsOf: replacement.codes)
                let shownAs =
                    original.count == upper.count
                    ? original[i..<min(original.count, i + replacement.consumed)] : upper[i..<i + replacement.consumed]
                warnings.append(
                    LayoutWarning(
                        line: lineNumber, position: i + 1,
                        text: Self.substitutionText(
                            String(String.UnicodeScalarView(shownAs)), replacement.codes, flap62: flap62)))
                i += replacement.consumed
            } else if unsupported == .replace {
                let consumed = 1 + Substitutions.modifiers(in: upper, after: i)
                let stand = Self.standIn(in: upper, from: i, to: i + consumed)
                codes.append(stand)
                let shown = String(String.UnicodeScalarView(upper[i..<i + consumed]))
                warnings.append(
                    LayoutWarning(
                        line: lineNumber, position: i + 1,
                        text: "\(PythonText.repr(Array(shown.unicodeScalars))) is not on the board: shown as \(stand == .blank ? "' '" : "'?'")"))
                i += consumed
            } else {
                let why = c == "°" && flap62 == .heart ? " (this board's flap 62 is a heart)" : ""
                throw LayoutError(line: lineNumber, position: i + 1, reason: "unsupported character: \(Character(c))\(why)")
            }
        }
    }

    /// A `{n}` or `{nn}` escape starting at `index`; the digits are read from the line as
    /// written (vesta looks them up in the original text, not the uppercased one).
    private func escape(
        _ s: [Unicode.Scalar], at index: Int, lineNumber: Int?
    ) throws(LayoutError) -> (CharacterCode, Int) {
        let digits: ArraySlice<Unicode.Scalar>
        let length: Int
        if s.count > index + 2, s[index + 2] == "}" {
            digits = s[(index + 1)...(index + 1)]
            length = 3
        } else if s.count > index + 3, s[index + 3] == "}" {
            digits = s[(index + 1)...(index + 2)]
            length = 4
        } else {
            throw LayoutError(
                line: lineNumber, position: index + 1,
                reason: "missing } at index \(index + 2) or \(index + 3)")
        }
        guard let value = PythonText.int(digits) else {
            // vesta lets Python's int() fail here, with no position; we say where.
            throw LayoutError(
                line: lineNumber, position: index + 2,
                reason: "invalid character code: \(PythonText.repr(Array(digits)))")
        }
        guard let code = CharacterCode(value) else {
            throw LayoutError(line: lineNumber, position: index + 2, reason: "unsupported character code: \(value)")
        }
        return (code, length)
    }

    /// What stands for an unsupported character between `start` and `end`: a blank, unless
    /// letters or digits stand on both sides of it, where a blank would split one word into two.
    static func standIn(in upper: [Unicode.Scalar], from start: Int, to end: Int) -> CharacterCode {
        func wordy(_ s: Unicode.Scalar) -> Bool { s.properties.isAlphabetic || ("0"..."9").contains(s) }
        guard start > 0, end < upper.count, wordy(upper[start - 1]), wordy(upper[end]) else { return .blank }
        return CharacterCode(character: "?") ?? .blank
    }

    /// The warning for a substitution, the codes as a board with `flap62` shows them.
    static func substitutionText(_ original: String, _ codes: [CharacterCode], flap62: Flap62 = .degree) -> String {
        if codes.isEmpty {
            let why = original == "°" && flap62 == .heart ? ": this board's flap 62 is a heart" : ""
            return "\(PythonText.repr(Array(original.unicodeScalars))) is not shown\(why)"
        }
        let shown = codes.map { code in code.colour.map { "{\($0.name)}" } ?? String(flap62.symbol(code)) }.joined()
        return "\(PythonText.repr(Array(original.unicodeScalars))) shown as \(PythonText.repr(Array(shown.unicodeScalars)))"
    }
}

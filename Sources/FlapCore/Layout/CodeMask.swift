/// A set of codes as a bit mask: looking a code up costs a shift, not a hash, and copying it
/// costs no reference count.
struct CodeMask: Equatable, Sendable {
    private var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    static func == (lhs: CodeMask, rhs: CodeMask) -> Bool {
        lhs.words.0 == rhs.words.0 && lhs.words.1 == rhs.words.1 && lhs.words.2 == rhs.words.2 && lhs.words.3 == rhs.words.3
    }

    /// The codes in the mask.
    var codes: Set<CharacterCode> {
        Set(
            (0...255).compactMap { raw in
                let code = CharacterCode(unchecked: UInt8(raw))
                return contains(code) ? code : nil
            })
    }

    init(_ codes: Set<CharacterCode>) {
        for code in codes {
            let bit = UInt64(1) << UInt64(code.rawValue & 63)
            switch code.rawValue >> 6 {
            case 0: words.0 |= bit
            case 1: words.1 |= bit
            case 2: words.2 |= bit
            default: words.3 |= bit
            }
        }
    }

    func contains(_ code: CharacterCode) -> Bool {
        let word =
            switch code.rawValue >> 6 {
            case 0: words.0
            case 1: words.1
            case 2: words.2
            default: words.3
            }
        return word & (UInt64(1) << UInt64(code.rawValue & 63)) != 0
    }
}

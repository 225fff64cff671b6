/// A set of codes as a bit mask: looking a code up costs a shift, not a hash.
struct CodeMask {
    private var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

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
        let word = switch code.rawValue >> 6 {
        case 0: words.0
        case 1: words.1
        case 2: words.2
        default: words.3
        }
        return word & (UInt64(1) << UInt64(code.rawValue & 63)) != 0
    }
}

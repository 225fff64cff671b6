/// One Vestaboard character code: 0 blank, 1–26 A–Z, 27–36 digits, punctuation, 63–71 colours.
///
/// Only the 66 codes a Vestaboard can show exist as values of this type; 43, 45, 51, 57, 58, 61
/// and anything above 71 are rejected by ``init(_:)``.
public struct CharacterCode: Hashable, Comparable, Sendable {
    /// The code as Vestaboard numbers it.
    public let rawValue: UInt8

    /// The code `value`, or nil when Vestaboard has no such code.
    public init?(_ value: Int) {
        guard value >= 0, value < CharacterCode.table.count, CharacterCode.table[value] != nil else { return nil }
        rawValue = UInt8(value)
    }

    init(unchecked value: UInt8) { rawValue = value }

    /// Codes in their number's order.
    public static func < (lhs: CharacterCode, rhs: CharacterCode) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Code 0: the blank flap, also every module's home position.
    public static let blank = CharacterCode(unchecked: 0)
    /// Code 62, `°` (a heart on some boards).
    public static let degree = CharacterCode(unchecked: 62)

    /// Every valid code in ascending order (66 codes).
    public static let all: [CharacterCode] = table.indices.compactMap { CharacterCode($0) }

    /// The printable character of this code (space for blank), or nil for a colour chip.
    public var character: Character? {
        guard case .character(let c) = CharacterCode.table[Int(rawValue)] else { return nil }
        return c
    }

    /// The colour chip of this code, or nil for a character.
    public var colour: Colour? { Colour(rawValue: rawValue) }

    /// The code a printable character stands for (`A`…`Z`, digits, punctuation, space, `°`);
    /// lowercase letters are not accepted here, callers uppercase first.
    public init?(character: Unicode.Scalar) {
        if character.value < 128 {
            let code = CharacterCode.asciiCodes[Int(character.value)]
            guard code >= 0 else { return nil }
            rawValue = UInt8(code)
        } else if character == "°" {
            rawValue = 62
        } else {
            return nil
        }
    }

    enum Glyph {
        case character(Character)
        case colour
    }

    /// Index = code. Holes (nil) are the codes Vestaboard leaves unused.
    static let table: [Glyph?] = {
        let printable: [Character?] =
            Array(" ABCDEFGHIJKLMNOPQRSTUVWXYZ1234567890!@#$()").map { $0 }
            + [nil, "-", nil, "+", "&", "=", ";", ":", nil, "'", "\"", "%", ",", ".", nil, nil, "/", "?", nil, "°"]
        var table: [Glyph?] = printable.map { $0.map(Glyph.character) }
        table += Array(repeating: Glyph.colour, count: 9)
        return table
    }()

    /// ASCII scalar value → code, −1 where ASCII has no code.
    static let asciiCodes: [Int16] = {
        var codes = [Int16](repeating: -1, count: 128)
        for (code, glyph) in table.enumerated() {
            guard case .character(let c)? = glyph, let ascii = c.asciiValue else { continue }
            codes[Int(ascii)] = Int16(code)
        }
        return codes
    }()
}

extension CharacterCode: CustomStringConvertible {
    /// The character or colour with its number, for messages: `A (1)`, `red (63)`, `blank (0)`.
    public var description: String {
        if let colour { return "\(colour.name) (\(rawValue))" }
        return "\(character.map { $0 == " " ? "blank" : String($0) } ?? "?") (\(rawValue))"
    }
}

extension CharacterCode: Codable {
    /// A code from its number; a number that is no code is refused.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let value = try container.decode(Int.self)
        guard let code = CharacterCode(value) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "\(value) is not a Vestaboard character code")
        }
        self = code
    }

    /// The code as its number.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(Int(rawValue))
    }
}

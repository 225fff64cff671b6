/// The code a board shows until someone claims it: eight digits drawn at random, never one a
/// person would guess first. As HomeKit and Matter refuse them, no code has all its digits
/// equal, and none runs straight up or down (12345678, 87654321, 23456789, …).
public struct SetupCode: Sendable, Hashable, CustomStringConvertible {
    /// How many digits a code has.
    public static let length = 8
    /// How long a code lasts before the board shows a new one.
    public static let lifetime: Duration = .seconds(15 * 60)
    /// Its digits, `"40172953"`.
    public let digits: String

    /// A new code from `generator`, drawn again until it is not a trivial one.
    public static func random(using generator: inout some RandomNumberGenerator) -> SetupCode {
        while true {
            let digits = String((0..<length).map { _ in Character(String(Int.random(in: 0...9, using: &generator))) })
            if !isTrivial(digits) { return SetupCode(checked: digits) }
        }
    }

    /// A new code from the system's random source.
    public static func random() -> SetupCode {
        var generator = SystemRandomNumberGenerator()
        return random(using: &generator)
    }

    /// What a person typed, read as a code: its digits, with spaces and dashes between them
    /// ignored; nil when it is not eight digits.
    public init?(typed: String) {
        let kept = typed.filter { $0 != " " && $0 != "-" }
        guard kept.count == Self.length, kept.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        digits = kept
    }

    private init(checked digits: String) { self.digits = digits }

    /// Whether `digits` are all one digit, or each one more (or each one less) than the one before.
    public static func isTrivial(_ digits: String) -> Bool {
        let values = digits.compactMap(\.wholeNumberValue)
        guard values.count > 1 else { return true }
        let steps = Set(zip(values, values.dropFirst()).map { $1 - $0 })
        return steps == [0] || steps == [1] || steps == [-1]
    }

    /// As the board shows it and a person reads it out: `4017 2953`.
    public var description: String { "\(digits.prefix(4)) \(digits.dropFirst(4))" }
}

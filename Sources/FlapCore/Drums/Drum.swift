/// The ordered flaps of a physical module. Index 0 is home and must be the blank flap.
public struct Drum: Hashable, Sendable {
    /// The drum's name (`vestaboard`, `chainlink52`, `chainlink40`, or `custom`).
    public let name: String
    /// The code on each flap, in the order the drum turns forward.
    public let codes: [CharacterCode]
    private let indexByCode: [Int16]
    /// What its flap 62 shows, when known: a drum string says it (`°` or `♥`), a panel's
    /// `flap62` setting or model does; nil leaves it to the board's size (``Flap62/init(defaultFor:)``).
    public var flap62: Flap62?

    /// A drum of `codes`, which must start with blank and hold no code twice.
    public init(name: String, codes: [CharacterCode]) throws(DrumError) {
        guard codes.first == .blank else {
            throw DrumError("drum \(name) must start with the blank flap (its home position)")
        }
        var index = [Int16](repeating: -1, count: 72)
        for (position, code) in codes.enumerated() {
            guard index[Int(code.rawValue)] < 0 else {
                throw DrumError("drum \(name) has \(code) twice (flaps \(index[Int(code.rawValue)] + 1) and \(position + 1))")
            }
            index[Int(code.rawValue)] = Int16(position)
        }
        self.name = name
        self.codes = codes
        indexByCode = index
    }

    /// Number of flaps.
    public var count: Int { codes.count }

    /// The flap that shows `code`, or nil when the drum has none.
    public func index(of code: CharacterCode) -> Int? {
        let i = indexByCode[Int(code.rawValue)]
        return i < 0 ? nil : Int(i)
    }

    /// Whether the drum has a flap for `code`.
    public func contains(_ code: CharacterCode) -> Bool { index(of: code) != nil }

    /// A drum described as a string of its flaps in order: a space for blank, `A`–`Z`, digits,
    /// punctuation as on the board, `°` or `♥` (flap 62 as the drum has it), and lowercase
    /// letters for colour flaps (r red, o orange, y yellow, g green, b blue, p violet, w white,
    /// k black, f filled).
    public init(string: String, name: String = "custom") throws(DrumError) {
        var codes: [CharacterCode] = []
        var flap62: Flap62?
        for (offset, character) in string.enumerated() {
            if let colour = Colour(letter: character) {
                codes.append(colour.code)
            } else if character == "♥" {
                codes.append(.degree)
                flap62 = .heart
            } else if let scalar = character.unicodeScalars.first, character.unicodeScalars.count == 1,
                let code = CharacterCode(character: scalar)
            {
                codes.append(code)
                if code == .degree { flap62 = .degree }
            } else {
                throw DrumError(
                    "drum string, character \(offset + 1): \(PythonText.repr(Array(character.unicodeScalars))) is not a board character or colour letter"
                )
            }
        }
        try self.init(name: name, codes: codes)
        self.flap62 = flap62
    }

    /// The drum as a drum string (see ``init(string:name:)``).
    public var string: String { String(codes.map((flap62 ?? .degree).symbol)) }

    /// The 66 codes of a Vestaboard, in ascending code order.
    public static let vestaboard = try! Drum(name: "vestaboard", codes: CharacterCode.all)
    /// The Chainlink v2 drum of scottbez1/splitflap (52 flaps, five colours).
    public static let chainlink52 = try! Drum(
        string: " ABCDEFGHIJKLMNOPQRSTUVWXYZg0123456789r.?-$'#yp,!@&w", name: "chainlink52")
    /// The original 40-flap splitflap drum.
    public static let chainlink40 = try! Drum(string: " ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.,'", name: "chainlink40")

    /// The drums known by name.
    public static let named: [Drum] = [.vestaboard, .chainlink52, .chainlink40]

    /// The drum called `name`, or nil.
    public static func named(_ name: String) -> Drum? { named.first { $0.name == name } }
}

/// A drum that cannot be built from what was given.
public struct DrumError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong with the drum's letters.
    public var description: String
    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}

import FlapCore

/// The reel of an RS-485 module (Adam G Makes' open design): its flaps in the order they turn,
/// as the bytes the firmware is sent to show each, and where each shows in steps from home.
///
/// The board's drum is the reel's flaps that are board characters: a flap no board character
/// asks for (the firmware's `*`) is passed over, never aimed at, and timed all the same.
public struct RS485Reel: Sendable, Equatable {
    /// Each flap's byte, in order from home: a space for blank, `q` for the double quote, `r o
    /// y g b p w` for the colour flaps.
    public let bytes: [UInt8]
    /// The board characters among them, in the same order.
    public let drum: Drum
    /// For each drum flap, its place on the reel.
    public let reelIndex: [Int]

    /// The firmware v7 reel: 64 flaps, home blank.
    public static let firmware = try! RS485Reel(" ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!@#$&()-+=;q:%'.,/?*roygbpw")
    /// A 28BYJ-48 in half-steps.
    public static let defaultStepsPerRevolution = 4096
    /// The revolutions a module of this reel may have, in steps: at least two a flap, at most
    /// what the firmware's 16-bit counters hold (and `steps_per_revolution` allows). A module that
    /// says otherwise is not believed.
    public var revolutions: ClosedRange<Int> { (2 * bytes.count)...65_535 }
    /// The firmware's time a half-step.
    public static let halfStep = Duration.milliseconds(1)

    /// The reel `string` describes, one character a flap as the firmware names them; the first
    /// must be the blank, no flap may appear twice, and at most 100 flaps.
    public init(_ string: String) throws(DrumError) {
        let bytes = Array(string.utf8)
        guard string.unicodeScalars.allSatisfy({ $0.isASCII && $0.value >= 0x20 && $0 != "\u{7f}" }) else {
            throw DrumError("a reel is written in printable ASCII, one character a flap")
        }
        guard (2...100).contains(bytes.count) else { throw DrumError("a reel has 2 to 100 flaps, not \(bytes.count)") }
        if let repeated = bytes.indices.first(where: { bytes[..<$0].contains(bytes[$0]) }) {
            throw DrumError("the reel has \(String(UnicodeScalar(bytes[repeated]))) twice (flap \(repeated + 1))")
        }
        var codes: [CharacterCode] = [], places: [Int] = []
        for (place, byte) in bytes.enumerated() {
            guard let code = Self.code(of: byte) else { continue }
            codes.append(code)
            places.append(place)
        }
        drum = try Drum(name: "rs485", codes: codes)
        self.bytes = bytes
        reelIndex = places
    }

    /// The board character a flap's byte shows, nil for one the board has not (`*`).
    static func code(of byte: UInt8) -> CharacterCode? {
        switch byte {
        case UInt8(ascii: "q"): return CharacterCode(character: "\"")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return Colour(letter: Character(UnicodeScalar(byte))).map(\.code)
        default: return CharacterCode(character: UnicodeScalar(byte))
        }
    }

    /// The byte that shows drum flap `index` (`m05-A`).
    public func byte(forDrumFlap index: Int) -> UInt8 { bytes[reelIndex[index]] }

    /// The modules' motion: a half-step a millisecond, flap k of the reel at its `stored`
    /// position (steps past home, by reel index, as a module's `d` dump gives them), else at
    /// ⌈k × steps / flaps⌉, where the firmware puts a flap with no stored position.
    public func profile(stepsPerRevolution: Int = defaultStepsPerRevolution, stored: [Int: Int] = [:]) -> StepperProfile {
        var steps = reelIndex.map { place in stored[place] ?? (place * stepsPerRevolution + bytes.count - 1) / bytes.count }
        // Stored positions out of order or past the turn (a module calibrated for another reel)
        // would make no turn: those flaps keep the firmware's own place.
        if zip(steps, steps.dropFirst()).contains(where: { $0 >= $1 }) || steps.first != 0 || (steps.last ?? 0) >= stepsPerRevolution {
            steps = reelIndex.map { place in (place * stepsPerRevolution + bytes.count - 1) / bytes.count }
        }
        return StepperProfile(flapSteps: steps, stepsPerTurn: stepsPerRevolution, period: Self.halfStep)
    }
}

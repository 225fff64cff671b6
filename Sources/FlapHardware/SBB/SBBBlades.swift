import FlapCore

/// The blades of an SBB/annax module, in the order it turns: the board characters among them
/// make the panel's drum, and a blade that shows none (a destination, a number the board has no
/// character for) is passed over, never aimed at, and timed all the same.
public struct SBBBlades: Sendable, Equatable {
    /// Each blade as configured: a board character, or nil for one that shows none.
    public let shown: [CharacterCode?]
    /// The board characters among them, in the same order; blade 0 (where `C5` sends a module) is
    /// the drum's first flap, its blank.
    public let drum: Drum
    /// For each drum flap, its blade.
    public let bladeIndex: [Int]

    /// How long a blade takes to fall (the modules turn at one speed, with no ramp).
    public static let defaultBladeTime = Duration.milliseconds(100)

    /// The blades `string` describes, one character a blade: a board character (letters in
    /// either case) or `*` for a blade that shows none. The first is blade 0, which must be blank
    /// (a space): the module's home. 2 to 255 blades; no character twice.
    public init(_ string: String) throws(DrumError) {
        let characters = Array(string)
        guard (2...255).contains(characters.count) else { throw DrumError("a module has 2 to 255 blades, not \(characters.count)") }
        guard characters.first == " " else {
            throw DrumError("blade 0 (the module's home) must be blank: start blades with a space")
        }
        var shown: [CharacterCode?] = [], codes: [CharacterCode] = [], places: [Int] = []
        for (blade, character) in characters.enumerated() {
            if character == "*" {
                shown.append(nil)
                continue
            }
            let upper = character.uppercased().unicodeScalars
            guard upper.count == 1, let scalar = upper.first, let code = CharacterCode(character: scalar) else {
                throw DrumError("blade \(blade) is \"\(character)\", which the board has no character for: write * for a blade that shows none")
            }
            guard !codes.contains(code) else { throw DrumError("blades have \"\(character)\" twice (blade \(blade))") }
            shown.append(code)
            codes.append(code)
            places.append(blade)
        }
        drum = try Drum(name: "sbb", codes: codes)
        self.shown = shown
        bladeIndex = places
    }

    /// How many blades a module has.
    public var count: Int { shown.count }

    /// The drum flap a blade shows, or, for a blade that shows no character, the last one the
    /// module passed before it: from there a plan turns it on as far as it truly must.
    public func drumFlap(atBlade blade: Int) -> Int {
        bladeIndex.lastIndex { $0 <= blade } ?? 0
    }

    /// The modules' motion: a blade every `bladeTime`, the first a blade's time after the frame,
    /// each drum flap at its blade.
    public func profile(bladeTime: Duration = defaultBladeTime) -> StepperProfile {
        StepperProfile(flapSteps: bladeIndex, stepsPerTurn: count, period: bladeTime, firstStepDelay: bladeTime)
    }
}

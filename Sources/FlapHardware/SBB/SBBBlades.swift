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
    /// Each blade's label, as a message may name it (`ZÜRICH HB`): as configured, else its
    /// character; empty for a blade that has neither.
    public private(set) var labels: [String]

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
        labels = shown.map { $0?.character.map(String.init) ?? "" }
    }

    /// These blades labelled `labels`, one a blade in order from blade 0 (an empty one, or a
    /// blade past the list's end, keeps the blade's character); no label twice, whatever its case.
    public func labelled(_ labels: [String]) throws(DrumError) -> SBBBlades {
        guard labels.count <= count else { throw DrumError("\(labels.count) labels for \(count) blades: at most one a blade, in order") }
        var labelled = self
        for (blade, label) in labels.enumerated() where !label.isEmpty { labelled.labels[blade] = label }
        for (blade, label) in labelled.labels.enumerated() where !label.isEmpty && label != " " {
            if let earlier = labelled.labels[..<blade].firstIndex(where: { $0.uppercased() == label.uppercased() }) {
                throw DrumError("blades \(earlier) and \(blade) are both labelled \"\(label)\"")
            }
        }
        return labelled
    }

    /// The blade labelled `label` (in any case), nil for none.
    public func blade(labelled label: String) -> Int? {
        let wanted = label.uppercased()
        return labels.firstIndex { !$0.isEmpty && $0.uppercased() == wanted }
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

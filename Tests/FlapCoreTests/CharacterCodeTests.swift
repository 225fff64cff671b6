import Testing

@testable import FlapCore

@Suite struct CharacterCodeTests {
    @Test func exactlyTheSixtySixVestaboardCodesAreValid() {
        let invalid: Set<Int> = [43, 45, 51, 57, 58, 61]
        for value in -5...300 {
            let valid = (0...71).contains(value) && !invalid.contains(value)
            #expect((CharacterCode(value) != nil) == valid, "code \(value)")
        }
        #expect(CharacterCode.all.count == 66)
        #expect(CharacterCode.all == CharacterCode.all.sorted())
    }

    @Test func charactersMapToTheDesignTable() {
        let expected: [(Character, Int)] = [
            (" ", 0), ("A", 1), ("Z", 26), ("1", 27), ("9", 35), ("0", 36), ("!", 37), ("@", 38), ("#", 39),
            ("$", 40), ("(", 41), (")", 42), ("-", 44), ("+", 46), ("&", 47), ("=", 48), (";", 49), (":", 50),
            ("'", 52), ("\"", 53), ("%", 54), (",", 55), (".", 56), ("/", 59), ("?", 60), ("°", 62)
        ]
        for (character, code) in expected {
            #expect(CharacterCode(character: character.unicodeScalars.first!)?.rawValue == UInt8(code))
            #expect(CharacterCode(code)?.character == character)
        }
        #expect(CharacterCode(character: "a") == nil)
        #expect(CharacterCode(character: "~") == nil)
    }

    @Test func coloursAreCodesSixtyThreeToSeventyOne() {
        #expect(Colour.allCases.map(\.rawValue) == Array(63...71))
        #expect(CharacterCode(67)?.colour == .blue)
        #expect(CharacterCode(67)?.character == nil)
        for colour in Colour.allCases { #expect(Colour(letter: colour.letter) == colour) }
    }
}

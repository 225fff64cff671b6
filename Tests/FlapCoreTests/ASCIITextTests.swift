import FlapPrimitives
import Testing

@testable import FlapCore

/// The ASCII fast path against the general path it stands in for: on seeded random texts made
/// of what trips layouts up (escapes, braces, digits, every kind of line break, characters the
/// board lacks), whenever it answers, its lines and codes are the general path's, with no
/// warning the general path would have given; and it answers for plain text.
@Suite struct ASCIITextTests {
    static let pieces = [
        "{", "}", "{6}", "{06}", "{66}", "{7", "{ 6}", "{1_0}", "{99}", "{63}{64}", "a", "Z", "7", "0", " ", "-", ".",
        "\n", "\r", "\r\n", "\u{0B}", "\u{0C}", "\u{1C}", "\u{1E}", "\t", "~", "`", "[", "q", "?", "!", "%", "°", "é", "\u{C2}"
    ]

    /// The general path: Python's line split, then the scalar encoder, line by line.
    static func general(_ text: String) -> (codes: [CharacterCode], lineEnds: [Int])? {
        var codes: [CharacterCode] = [], ends: [Int] = [], warnings: [LayoutWarning] = []
        let encoder = TextEncoder(substitutions: false)
        for (index, line) in PythonText.splitLines(Array(text.unicodeScalars)).enumerated() {
            do { try encoder.encode(line, lineNumber: index + 1, into: &codes, warnings: &warnings) } catch { return nil }
            ends.append(codes.count)
        }
        return warnings.isEmpty ? (codes, ends) : nil
    }

    @Test func itAgreesWithTheGeneralPathWheneverItAnswers() {
        var random = SeededRandom(seed: 20261124)
        var answered = 0
        for _ in 0..<20_000 {
            let text = (0..<Int(random.next() % 12)).map { _ in Self.pieces[Int(random.next() % UInt64(Self.pieces.count))] }.joined()
            guard let fast = ASCIIText.codes(of: text) else { continue }
            answered += 1
            let general = Self.general(text)
            #expect(general?.codes == fast.codes && general?.lineEnds == fast.lineEnds, "\(text.debugDescription)")
        }
        #expect(answered > 2_000)
    }

    @Test func plainTextIsTakenAndAnythingElseLeftToTheGeneralPath() {
        #expect(ASCIIText.codes(of: "Hello World\nGOOD {66}")?.lineEnds == [11, 17])
        #expect(ASCIIText.codes(of: "")?.lineEnds == [])
        #expect(ASCIIText.codes(of: "a\r\n\r\nb\n")?.lineEnds == [1, 1, 2])
        #expect(ASCIIText.codes(of: "18° and sunny")?.codes.prefix(3).map(\.rawValue) == [27, 34, 62])
        for other in ["café", "{ 6}", "{99}", "{7", "tab\there", "Â"] { #expect(ASCIIText.codes(of: other) == nil, "\(other)") }
    }
}

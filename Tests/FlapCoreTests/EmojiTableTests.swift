import Foundation
import Testing

@testable import FlapCore

/// What phones send: the emoji table, and characters nothing stands in for.
@Suite struct EmojiTableTests {
    func laidOut(_ text: String, unsupported: UnsupportedCharacters = .replace, size: BoardSize = .flagship) throws -> LaidOutText {
        var options = LayoutOptions(size: size)
        options.valign = nil
        options.unsupported = unsupported
        options.flap62 = Flap62(defaultFor: size)
        return try TextLayout.encodeText(text, options: options)
    }

    @Test func theTableHasTheCommonEmojiEachDrawnWithTheBoardsOwnCharacters() throws {
        #expect(EmojiTable.entries.count >= 40)
        for entry in EmojiTable.entries {
            #expect(!entry.codes.isEmpty, "\(entry.name): \(entry.shownAs) does not encode")
            #expect(try TextLayout.encode(entry.shownAs, substitutions: false).codes == entry.codes)
        }
        let asked = [
            "❤️", "🧡", "💛", "💚", "💙", "💜", "🤍", "🖤", "👍", "👎", "😊", "🙂", "😂", "😢", "😍", "🎉", "⭐", "🌟",
            "🔥", "☀️", "🌙", "☕", "🍕", "🎂", "🏠", "🚗", "✅", "❌", "⚠️"
        ]
        let emoji = Set(EmojiTable.entries.map(\.emoji))
        for wanted in asked { #expect(emoji.contains(wanted), "\(wanted) is missing") }
    }

    @Test func everyEntryIsLaidOutAsItsRendition() throws {
        for entry in EmojiTable.entries where entry.emoji != "❤️" {
            let laid = try laidOut(entry.emoji)
            #expect(Array(laid.codes.prefix(entry.codes.count)) == entry.codes, "\(entry.emoji) \(entry.name)")
            #expect(laid.warnings.count == 1 && laid.warnings[0].description.contains("shown as"), "\(entry.emoji): \(laid.warnings)")
        }
        // Also without its presentation selector, and with a skin tone: one character, one warning.
        let thumbs = try laidOut("👍🏽 ☀ NOW")
        let expected = try TextLayout.encode("OK {65} NOW").codes
        #expect(Array(thumbs.codes.prefix(expected.count)) == expected)
        #expect(thumbs.warnings.count == 2)
    }

    @Test func theRedHeartIsARedTileOnAFlagshipAndTheHeartFlapOnANote() throws {
        #expect(try laidOut("❤️").codes.first == Colour.red.code)
        let note = try laidOut("I ❤️ U", size: .note)
        #expect(note.codes.prefix(5).map(\.rawValue) == [9, 0, 62, 0, 21])
        // Its warning says what the Note shows: its heart, not a degree sign.
        #expect(note.warnings.contains { $0.text.hasSuffix("shown as '♥'") }, "\(note.warnings)")
        // Its colour variants and the card suit too, as VBML makes them there; on a Flagship, tiles of their colour.
        #expect(try laidOut("🧡💛💚💙💜🖤🤍🤎♥", size: .note).codes.prefix(9).map(\.rawValue) == Array(repeating: 62, count: 9))
        #expect(try laidOut("🧡💙").codes.prefix(2).map(\.rawValue) == [64, 67])
    }

    @Test func aCharacterNothingStandsInForIsABlankOrAQuestionMarkInsideAWord() throws {
        let spaced = try laidOut("I 🦄 U")
        #expect(spaced.codes.prefix(5).map(\.rawValue) == [9, 0, 0, 0, 21])
        #expect(spaced.warnings.map(\.description) == ["line 1, position 3: '🦄' is not on the board: shown as ' '"])
        let inWord = try laidOut("A🦄B\nPRICE 5€")
        #expect(inWord.codes.prefix(3).map(\.rawValue) == [1, 60, 2])
        #expect(
            inWord.warnings.map(\.description) == [
                "line 1, position 2: '🦄' is not on the board: shown as '?'",
                "line 2, position 8: '€' is not on the board: shown as ' '"
            ])
        // Asked to refuse, the text is refused as vesta refuses it.
        #expect(throws: LayoutError(line: 1, position: 3, reason: "unsupported character: 🦄")) { try laidOut("I 🦄 U", unsupported: .refuse) }
    }

    @Test func docsEmojiMdListsTheTable() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let document = try String(contentsOf: root.appendingPathComponent("docs/emoji.md"), encoding: .utf8)
        let rows = document.split(separator: "\n").filter { $0.hasPrefix("| ") && !$0.hasPrefix("| emoji") }.map(String.init)
        #expect(
            rows == EmojiTable.entries.map(Self.row),
            "docs/emoji.md differs from the table; its rows should be:\n\(EmojiTable.entries.map(Self.row).joined(separator: "\n"))")
    }

    static func row(_ entry: EmojiTable.Entry) -> String {
        let note = EmojiTable.noteHearts.contains(entry.key) ? " (where flap 62 is a heart, that flap)" : ""
        return "| \(entry.emoji) | \(entry.name) | `\(entry.inWords)`\(note) |"
    }
}

import Foundation
import Testing

@testable import FlapControl

/// What flapctl prints from flapd reaches a terminal as text, never as the terminal's commands.
@Suite struct TerminalTextTests {
    @Test func controlAndDirectionCharactersAreShownAsCodes() {
        // A quick message named to clear the screen, retitle the window and ring the bell.
        let hostile = "\u{1B}[2J\u{1B}]0;pwned\u{07} lunch\u{202E}txt"
        #expect(TerminalText.escaped(hostile) == "\\u{1B}[2J\\u{1B}]0;pwned\\u{7} lunch\\u{202E}txt")
        #expect(TerminalText.escaped("C1 \u{9B}31m and DEL \u{7F}") == "C1 \\u{9B}31m and DEL \\u{7F}")
        // Lines, tabs, accents and emoji stay as they are.
        let plain = "lunch\tLUNCH IS / READY\nCafé 👩‍👧 ❤️"
        #expect(TerminalText.escaped(plain) == "lunch\tLUNCH IS / READY\nCafé 👩\\u{200D}👧 ❤️")
    }

    @Test func jsonPrintedAsItCameStaysTheSameJSON() throws {
        let body = "{\"name\":\"a\u{9B}b\u{202E}c\\u001b\",\"n\":1}"
        let escaped = TerminalText.escapedJSON(body)
        #expect(escaped == "{\"name\":\"a\\u009bb\\u202ec\\u001b\",\"n\":1}")
        let before = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? NSDictionary
        let after = try JSONSerialization.jsonObject(with: Data(escaped.utf8)) as? NSDictionary
        #expect(before == after)
    }
}

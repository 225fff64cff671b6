import FlapCore
import FlapJSON
import Foundation
import Testing

@testable import FlapMessaging

/// `{{name}}` in a quick message's or a schedule's text: filled, or an error saying which and where.
@Suite struct TextPlaceholdersTests {
    let values: [String: JSONValue] = ["weekday": "Thursday", "who": "SAM", "count": 3, "ratio": 1.5, "ok": true]

    @Test func namesAreFilledWithTheirValues() throws {
        #expect(try TextPlaceholders.fill("GOOD MORNING {{weekday}}", values: values) == "GOOD MORNING Thursday")
        #expect(try TextPlaceholders.fill("{{ who }}: {{count}} OF {{ratio}} {{ok}}", values: values) == "SAM: 3 OF 1.5 true")
        #expect(try TextPlaceholders.fill("NO NAMES {63}", values: values) == "NO NAMES {63}")
    }

    @Test func aNameNothingFillsIsAnErrorSayingWhere() throws {
        #expect(throws: MessageErrors(field: "text", "line 2, position 4: {{wekday}} is not a placeholder; there are count, ok, ratio, weekday, who"))
        {
            try TextPlaceholders.fill("HI\nIT {{wekday}}", values: values)
        }
        #expect(throws: MessageErrors(field: "text", "line 1, position 4: {{ is not closed with }}")) {
            try TextPlaceholders.fill("HI {{who", values: values)
        }
        // Checking a quick message before its props come: the name stands in its place.
        #expect(try TextPlaceholders.fill("HI {{name}}", values: values, lenient: true) == "HI name")
    }

    @Test func onlyQuickMessagesAndSchedulesFillThem() throws {
        var parser = MessageParser(boardSize: .flagship, source: .template)
        parser.localProps = ["weekday": "Thursday"]
        // Elsewhere a brace starts a character code, and {{ is none.
        #expect(throws: MessageErrors.self) { try parser.parse(["text": "HI {{weekday}}"], now: .init(timeIntervalSince1970: 0)) }
        parser.textPlaceholders = ["who": "SAM"]
        #expect(try parser.parse(["text": "HI {{who}} {{weekday}}"], now: .init(timeIntervalSince1970: 0)).0.content == .text("HI SAM Thursday"))
    }
}

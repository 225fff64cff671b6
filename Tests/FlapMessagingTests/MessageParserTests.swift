import FlapCore
import Foundation
import Testing
@testable import FlapMessaging

@Suite struct MessageParserTests {
    let parser = MessageParser(boardSize: .flagship, source: "native-api")
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func parse(_ json: String) throws(MessageErrors) -> Message {
        try parser.parse(Array(json.utf8), now: now).0
    }

    func problems(_ json: String) -> [String] {
        do { _ = try parse(json); return [] } catch { return error.problems.map(\.description) }
    }

    @Test func defaultsAreFilledIn() throws {
        let m = try parse(#"{"text": "hello", "colour": "ignored"}"#)
        #expect(m.sender == Sender(id: "native-api"))
        #expect(m.createdAt == now)
        #expect(m.expiresAt == now + 48 * 3600)
        #expect(m.align == .center && m.valign == .middle)
        #expect(m.id.hasPrefix("h-"))
        #expect(m.id == (try parse(#"{"text": "hello"}"#)).id)
        #expect(m.id != (try parse(#"{"text": "hello!"}"#)).id)
    }

    @Test func allFieldsAreRead() throws {
        let m = try parse("""
            {"id": "m1", "sender": {"id": "kitchen", "name": "Kitchen"}, "codes": \(Array(repeating: Array(repeating: 63, count: 22), count: 6)),
             "createdAt": "2026-11-22T08:00:00Z", "expiresAt": "2026-11-22T09:00:00.5Z",
             "transition": {"strategy": "edges-to-center", "stepSize": 2, "stepIntervalMs": 50}}
            """)
        #expect(m.id == "m1" && m.sender == Sender(id: "kitchen", name: "Kitchen"))
        #expect(m.expiresAt.timeIntervalSince(m.createdAt) == 3600.5)
        #expect(m.transition == TransitionRequest(strategy: .edgesToCenter, stepSize: 2, stepIntervalMs: 50))
    }

    @Test func everyProblemIsReportedWithItsField() {
        let found = problems(#"{"id": 5, "sender": {"name": "x"}, "text": "ok", "align": "sideways", "expiresAt": "tomorrow", "transition": {"stepSize": 0}}"#)
        #expect(found == [
            "id: must be a string",
            "sender.id: is missing",
            "align: \"sideways\" is not one of left, center, right, justified",
            "expiresAt: \"tomorrow\" is not an ISO 8601 time such as 2026-11-22T08:30:00Z",
            "transition.stepSize: must be at least 1",
        ])
    }

    @Test func textErrorsSayTheLineAndPositionOfTheCharacter() {
        #expect(problems(#"{"text": "ok\nab~"}"#) == ["text: line 2, position 3: unsupported character: ~"])
    }

    @Test func codesMustBeTheBoardsSizeAndValid() {
        var rows = Array(repeating: Array(repeating: 0, count: 22), count: 6)
        rows[2][5] = 43
        rows[4] = [1, 2]
        let json = #"{"codes": \#(rows)}"#
        #expect(problems(json) == ["codes[2][5]: 43 is not a Vestaboard character code", "codes[4]: has 2 columns; the board has 22"])
        #expect(problems(#"{"codes": [[true]]}"#) == ["codes[0][0]: must be a whole number"])
    }

    @Test func patternsAreColourNames() throws {
        var rows = Array(repeating: Array(repeating: "blank", count: 22), count: 6)
        rows[0][0] = "red"
        let m = try parse(#"{"pattern": \#(rows)}"#)
        let board = try MessageRenderer(size: .flagship).board(for: m)
        #expect(board[0, 0] == Colour.red.code)
        rows[1][1] = "pink"
        #expect(problems(#"{"pattern": \#(rows)}"#).first?.hasPrefix("pattern[1][1]: pink is not a colour") == true)
    }

    @Test func exactlyOneKindOfContent() {
        #expect(problems(#"{"sender": {"id": "a"}}"#) == ["text: a message needs one of text, codes or pattern"])
        #expect(problems(#"{"text": "a", "codes": []}"#) == ["text, codes: give only one of text, codes or pattern"])
        #expect(problems("[1]") == ["a message must be a JSON object"])
        #expect(problems("{nope") == ["the body is not valid JSON"])
    }
}

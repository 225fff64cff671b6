import FlapCore
import Foundation
import Testing

@testable import FlapMessaging

@Suite struct MessageParserTests {
    let parser = MessageParser(boardSize: .flagship, source: .nativeAPI)
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func parse(_ json: String) throws(MessageErrors) -> Message {
        try parser.parse(Array(json.utf8), now: now).0
    }

    func problems(_ json: String) -> [String] {
        do { _ = try parse(json); return [] } catch { return error.problems.map(\.description) }
    }

    @Test func whatEachPanelsModulesLackIsAWarningNamingIt() throws {
        var parser = MessageParser(boardSize: .flagship, source: .nativeAPI)
        parser.drum = .vestaboard
        parser.otherPanels = [PanelFlaps(id: "wall", size: BoardSize(rows: 3, columns: 15), flap62: .degree, drum: .chainlink40)]
        let warnings = try parser.parse(Array(#"{"text": "20°C"}"#.utf8), now: now).1
        #expect(warnings == ["panel wall: the chainlink40 drum has no ° (row 2, column 8): shown as O"], "\(warnings)")
        // The first panel's own lacks are said without its name, as before.
        parser.drum = .chainlink40
        parser.otherPanels = []
        let own = try parser.parse(Array(#"{"text": "20°C"}"#.utf8), now: now).1
        #expect(own.count == 1 && own[0].hasPrefix("the chainlink40 drum has no ° (row ") && own[0].hasSuffix("): shown as O"), "\(own)")
    }

    @Test func defaultsAreFilledIn() throws {
        let m = try parse(#"{"text": "hello", "colour": "ignored"}"#)
        #expect(m.sender == Sender(id: "native-api"))
        #expect(m.createdAt == now)
        #expect(m.expiresAt == now + 48 * 3600)
        #expect(m.align == .center && m.valign == .middle)
        #expect(m.id.hasPrefix("m-"))
        #expect(m.id != (try parse(#"{"text": "hello"}"#)).id)
        #expect(m.repeatKey == (try parse(#"{"text": "hello"}"#)).repeatKey)
        #expect(m.repeatKey != (try parse(#"{"text": "hello!"}"#)).repeatKey)
    }

    @Test func allFieldsAreRead() throws {
        let m = try parse(
            """
            {"id": "m1", "sender": {"id": "kitchen", "name": "Kitchen"}, "codes": \(Array(repeating: Array(repeating: 63, count: 22), count: 6)),
             "createdAt": "2026-11-22T08:00:00Z", "expiresAt": "2026-11-22T09:00:00.5Z",
             "transition": {"strategy": "edges-to-center", "stepSize": 2, "stepIntervalMs": 50}}
            """)
        #expect(m.id == "m1" && m.sender == Sender(id: "kitchen", name: "Kitchen"))
        #expect(m.expiresAt.timeIntervalSince(m.createdAt) == 3600.5)
        #expect(m.transition == TransitionRequest(strategy: .edgesToCenter, stepSize: 2, stepIntervalMs: 50))
    }

    @Test func everyProblemIsReportedWithItsField() {
        let found = problems(
            #"{"id": 5, "sender": {"name": "x"}, "text": "ok", "align": "sideways", "expiresAt": "tomorrow", "transition": {"stepSize": 0}}"#)
        #expect(
            found == [
                "id: must be a string",
                "sender.id: is missing",
                "align: \"sideways\" is not one of left, center, right, justified",
                "expiresAt: \"tomorrow\" is not an ISO 8601 time such as 2026-11-22T08:30:00Z",
                "transition.stepSize: must be at least 1"
            ])
    }

    @Test func textErrorsSayTheLineAndPositionOfTheCharacter() throws {
        #expect(problems(#"{"text": "ok\nab~", "unsupported": "refuse"}"#) == ["text: line 2, position 3: unsupported character: ~"])
        // Without the refusal asked for, the character is replaced and the warning says where.
        #expect(try parser.parse(Array(#"{"text": "ok\nab~"}"#.utf8), now: now).1 == ["line 2, position 3: '~' is not on the board: shown as ' '"])
        #expect(problems(#"{"text": "x", "unsupported": "never"}"#) == [#"unsupported: "never" is not one of refuse, replace"#])
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
        #expect(problems(#"{"sender": {"id": "a"}}"#) == ["text: a message needs one of text, codes, pattern or vbml"])
        #expect(problems(#"{"text": "a", "codes": []}"#) == ["text, codes: give only one of text, codes, pattern or vbml"])
        #expect(problems("[1]") == ["a message must be a JSON object"])
        #expect(problems("{nope") == ["the body is not valid JSON"])
    }
}

/// A sender's wrong clock: no createdAt from the future can keep a message the newest for ever,
/// and no date past 9999 is produced.
@Suite struct SenderClockTests {
    let suite = MessageParserTests()

    @Test func aCreatedAtFarAheadIsTakenAsTheArrivalTimeWithAWarning() throws {
        let (message, warnings) = try suite.parser.parse(
            Array(#"{"text": "HI5", "createdAt": "9999-12-31T23:59:59Z", "sender": {"id": "future"}}"#.utf8), now: suite.now)
        #expect(message.createdAt == suite.now)
        #expect(message.expiresAt == suite.now + 48 * 3600)
        #expect(warnings.first?.contains("createdAt 9999-12-31T23:59:59Z is more than 5 minutes ahead of flapd's clock") == true, "\(warnings)")
        // A clock a little fast is left as it is, so its messages keep their order.
        let (close, none) = try suite.parser.parse(Array(#"{"text": "HI", "createdAt": "2027-01-15T08:04:00Z"}"#.utf8), now: suite.now)
        #expect(close.createdAt == suite.now + 240 && none.isEmpty)
    }

    @Test func noDatePastTheYear9999IsTakenOrMade() throws {
        #expect(suite.problems(#"{"text": "HI", "expiresAt": "+10000-01-01T00:00:00Z"}"#).first?.hasPrefix("expiresAt:") == true)
        // Sent for the last second RFC 3339 can write: its default expiry is that second too, not 10000-01-02.
        let (waiting, _) = try suite.parser.parse(Array(#"{"text": "HI", "notBefore": "9999-12-31T23:59:59Z"}"#.utf8), now: suite.now)
        #expect(waiting.expiresAt == MessageParser.latestDate)
        #expect(
            suite.problems(#"{"text": "HI", "createdAt": "1969-12-31T23:59:59Z"}"#).first?.contains(
                "outside 1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z") == true)
    }
}

/// Names that would cut a receipt short, forge a log line or rewrite a terminal are refused.
@Suite struct ControlCharacterTests {
    let suite = MessageParserTests()

    @Test func controlCharactersInIdsAndNamesAreRefusedNamingTheField() {
        #expect(
            suite.problems(#"{"text": "HI", "sender": {"id": "pho\u0000ne"}}"#) == [
                "sender.id: must not hold control characters: U+0000 at position 4"
            ])
        #expect(
            suite.problems(#"{"text": "HI", "sender": {"id": "a", "name": "Ana\nINFO fake line"}}"#) == [
                "sender.name: must not hold control characters: U+000A at position 4"
            ])
        #expect(suite.problems(#"{"text": "HI", "id": "\u001b[2Jx"}"#) == ["id: must not hold control characters: U+001B at position 1"])
        // Invisible format characters too: a right-to-left override, a zero-width space.
        #expect(
            suite.problems(#"{"text": "HI", "sender": {"id": "mum\u202etxt"}}"#)
                == [
                    "sender.id: must not hold invisible characters: U+202E at position 4 is a direction control, which changes how the text around it reads"
                ])
        #expect(
            suite.problems(#"{"text": "HI", "sender": {"id": "a", "name": "Mu\u200bm"}}"#)
                == ["sender.name: must not hold invisible characters: U+200B at position 3 is an invisible formatting character"])
        // The joiner inside an emoji family is part of the name.
        #expect(suite.problems(#"{"text": "HI", "sender": {"id": "a", "name": "Mum \ud83d\udc69\u200d\ud83d\udc67"}}"#) == [])
        // Letters of every script, spaces and emoji are names like any other.
        #expect(suite.problems(#"{"text": "HI", "sender": {"id": "my phone ☃", "name": "Zoë 🙂"}}"#).isEmpty)
    }
}

/// Temporary messages: `duration` read, checked and turned into when the message ends.
extension MessageParserTests {
    @Test func aDurationMakesATemporaryMessageThatEndsAfterIt() throws {
        let m = try parse(#"{"text": "DOOR OPEN", "duration": 60}"#)
        #expect(m.duration == 60)
        #expect(m.expiresAt == now + 60)
        #expect(m.slotKey == Message.temporarySlot)
        let later = try parse(#"{"text": "DOOR OPEN", "duration": 600, "notBefore": "2027-01-15T09:00:00Z"}"#)
        #expect(later.expiresAt == later.notBefore! + 600)
        // Another duration is another request, not a retry of the first.
        #expect(m.repeatKey != later.repeatKey)
        #expect(m.repeatKey != (try parse(#"{"text": "DOOR OPEN"}"#)).repeatKey)
        #expect(try parse(#"{"text": "DOOR OPEN"}"#).slotKey == "native-api")
    }

    @Test func aDurationOutsideTenSecondsToTwelveHoursOrBesideExpiresAtIsRefused() {
        #expect(problems(#"{"text": "A", "duration": 9}"#) == ["duration: must be 10 to 43200 seconds (12 hours), not 9"])
        #expect(problems(#"{"text": "A", "duration": 43201}"#) == ["duration: must be 10 to 43200 seconds (12 hours), not 43201"])
        #expect(problems(#"{"text": "A", "duration": 1.5}"#).first?.hasPrefix("duration") == true)
        #expect(
            problems(#"{"text": "A", "duration": 60, "expiresAt": "2027-01-15T09:00:00Z"}"#)
                == ["duration: give duration or expiresAt, not both: a temporary message ends after its duration"])
        #expect(problems(#"{"text": " ", "duration": 60}"#) == ["duration: an empty text clears its sender's slot; it cannot be temporary"])
    }
}

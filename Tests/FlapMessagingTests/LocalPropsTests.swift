import FlapCore
import FlapJSON
import FoundationEssentials
import Testing

@testable import FlapMessaging

/// The date and time a VBML message's templates may name, in the board's zone, filled in as it arrives.
@Suite struct LocalPropsTests {
    static let thursday = Date(timeIntervalSince1970: 1_795_676_709)  // 2026-11-26T07:05:09Z

    @Test func theValuesAreTheBoardsLocalDateAndTime() throws {
        let utc = LocalProps(zone: .utc).values(at: Self.thursday)
        #expect(utc["weekday"] == "Thursday" && utc["date"] == "2026-11-26" && utc["time"] == "07:05")
        #expect(utc["day"] == "26" && utc["month"] == "November" && utc["year"] == "2026" && utc["hour"] == "07" && utc["minute"] == "05")
        let berlin = try #require(ZoneRules(posix: "CET-1CEST,M3.5.0,M10.5.0/3"))
        #expect(LocalProps(zone: berlin).values(at: Self.thursday)["time"] == "08:05")
        // Late on Thursday in UTC is already Friday in Berlin.
        let late = LocalProps(zone: berlin).values(at: Self.thursday.addingTimeInterval(16.5 * 3600))
        #expect(late["weekday"] == "Friday" && late["date"] == "2026-11-27" && late["time"] == "00:35")
        // Before 1970 too.
        #expect(LocalProps(zone: .utc).values(at: Date(timeIntervalSince1970: -86_400))["date"] == "1969-12-31")
    }

    @Test func aDocumentsOwnPropsWinAndTheMessageKeepsTheDayItArrived() throws {
        var parser = MessageParser(boardSize: .flagship, source: MessageSource("test"))
        parser.localProps = LocalProps(zone: .utc).values(at: Self.thursday)
        let json = #"{"vbml": {"props": {"time": "LUNCH"}, "components": [{"template": "GOOD MORNING {{weekday}} {{time}}"}]}}"#
        let (message, _) = try parser.parse(Array(json.utf8), now: Self.thursday)
        guard case .vbml(let document) = message.content else { Issue.record("not a VBML message"); return }
        #expect(document["props"]?["weekday"] == "Thursday" && document["props"]?["time"] == "LUNCH")
        let board = try MessageRenderer(size: .flagship).board(for: message)
        #expect(board.rows.map { String($0.map(BoardText.symbol)) }.joined().contains("GOOD MORNING THURSDAY LUNCH"))
    }
}

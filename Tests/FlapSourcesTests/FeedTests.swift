import FlapJSON
import Foundation
import Testing

@testable import FlapSources

@Suite struct FeedTests {
    @Test func rssHeadlinesWithCDATAEntitiesAndDates() throws {
        let feed = try Feed(bytes: try CalendarTests.fixture("news.rss"))
        #expect(feed.title == "Town & Country News")
        #expect(
            feed.items.map(\.title) == [
                "Library opens late on Thursdays & Fridays", "Snow expected this weekend", "Café on Main Street reopens – with cake"
            ])
        #expect(feed.items.map(\.link) == ["https://news.example/library", "https://news.example/snow", "https://news.example/cafe"])
        #expect(feed.items.map { $0.published.map { Int($0.timeIntervalSince1970) } } == [1_795_671_000, 1_795_629_900, 1_795_521_600])
    }

    @Test func atomEntriesWithHTMLTitlesAndTheAlternateLink() throws {
        let feed = try Feed(bytes: try CalendarTests.fixture("releases.atom"))
        #expect(feed.title == "Project releases")
        #expect(feed.items.map(\.title) == ["Version 2.4 & notes", "Version 2.3"])
        #expect(feed.items.map(\.link) == ["https://example.org/2.4", "https://example.org/2.3"])
        #expect(feed.items[0].published == Date(timeIntervalSince1970: 1_795_595_400))
        #expect(feed.items[1].published == Date(timeIntervalSince1970: 1_790_841_600))
    }

    @Test func aLatin1FeedIsReadInItsEncoding() throws {
        let feed = try Feed(bytes: try CalendarTests.fixture("latin1.rss"))
        #expect(feed.title == "München heute")
        #expect(feed.items.map(\.title) == ["Grüße aus der Küche"])
    }

    @Test func whatIsNotAFeedSaysWhatAndWhere() {
        func problem(_ text: String) -> String {
            do { _ = try Feed(bytes: Array(text.utf8)); return "" } catch { return error.description }
        }
        #expect(problem("<html><body>502 Bad Gateway</body></html>").contains("<html> is neither an RSS feed"))
        #expect(problem("{\"error\": \"quota\"}").contains("this is not XML"))
        #expect(
            problem("<rss><channel><title>A</title>\n<item><title>B</item></channel></rss>").contains("line 2, column 15: </item> closes <title>"))
        #expect(problem("<rss><channel>").contains("<channel> is not closed"))
        #expect(problem("").contains("there is no element"))
        #expect(problem("<?xml version=\"1.0\" encoding=\"Shift_JIS\"?><rss/>").contains("\"shift_jis\" is not read"))
    }

    /// An item with <a> nested 3 000 deep (21 KB) overflowed the stack, and flapd crashed again
    /// after every restart: past 64 levels the feed is refused, saying where.
    @Test func aFeedNestedDeeperThanAnyFeedIsRefusedNotACrash() throws {
        let deep =
            "<rss><channel><title>T</title><item><title>" + String(repeating: "<a>", count: 3_000) + "x"
            + String(repeating: "</a>", count: 3_000) + "</title></item></channel></rss>"
        #expect(throws: SourceProblem.self) { try Feed(bytes: Array(deep.utf8)) }
        do { _ = try Feed(bytes: Array(deep.utf8)) } catch {
            #expect(error.description.contains("line 1, column 224: elements are nested more than 64 deep"), "\(error)")
        }
        // 60 deep is still a feed.
        let fine =
            "<rss><channel><title>T</title><item><title>" + String(repeating: "<b>", count: 58) + "Deep"
            + String(repeating: "</b>", count: 58) + "</title></item></channel></rss>"
        #expect(try Feed(bytes: Array(fine.utf8)).items.first?.title == "Deep")
    }
}

@Suite struct JSONPointerTests {
    @Test func picksValuesAsRFC6901Says() throws {
        let document = try JSONValue(parsing: Array(#"{"foo": ["bar", "baz"], "": 0, "a/b": 1, "m~n": 8, "list": [{"title": "x"}]}"#.utf8))
        func at(_ pointer: String) throws -> JSONValue? { try JSONPointer(pointer).resolve(in: document).get() }
        #expect(try at("") == document)
        #expect(try at("/foo/0") == "bar")
        #expect(try at("/") == 0)
        #expect(try at("/a~1b") == 1)
        #expect(try at("/m~0n") == 8)
        #expect(try at("/list/0/title") == "x")
    }

    @Test func problemsSayWhichPartIsMissing() throws {
        let document = try JSONValue(parsing: Array(#"{"current": {"temperature_2m": 3.4}, "list": [1, 2]}"#.utf8))
        func problem(_ pointer: String) -> String {
            do {
                _ = try JSONPointer(pointer).resolve(in: document).get()
                return ""
            } catch { return "\(error)" }
        }
        #expect(problem("/current/temperature") == "/current/temperature is not in the document")
        #expect(problem("/list/2") == "/list/2: the list there has 2 items")
        #expect(problem("/list/01") == "/list/01: \"01\" is not an index of the list there")
        #expect(problem("/current/temperature_2m/x") == "/current/temperature_2m/x: the value before it is not an object or a list")
        #expect(problem("current").contains("starts with /"))
        #expect(problem("/a~2").contains("~2 is not an escape"))
    }
}

import FlapCore
import FoundationEssentials

/// An RSS (2.0, 0.9x, 1.0) or Atom feed's title and headlines, newest first as the feed lists them.
public struct Feed: Sendable, Equatable {
    /// One headline.
    public struct Item: Sendable, Equatable {
        /// Its title as plain text (markup and entities resolved).
        public var title: String
        /// Its link, if it has one.
        public var link: String?
        /// When it was published, if the feed says and the date can be read.
        public var published: Date?
    }

    /// The feed's own title.
    public var title: String
    /// Its headlines, in the feed's order.
    public var items: [Item]

    /// Reads a feed from its bytes; a problem says what is wrong and where.
    public init(bytes: [UInt8]) throws(SourceProblem) {
        let root: XMLElement
        do { root = try XMLTreeReader.document(bytes) } catch { throw SourceProblem("the feed is not XML: \(error)") }
        switch root.name {
        case "rss":
            guard let channel = root.first("channel") else { throw SourceProblem("the RSS feed has no <channel>") }
            title = Self.plain(channel.first("title")?.text ?? "")
            items = channel.all("item").map(Self.rssItem)
        case "RDF":
            title = Self.plain(root.first("channel")?.first("title")?.text ?? "")
            items = root.all("item").map(Self.rssItem)
        case "feed":
            title = Self.atomText(root.first("title"))
            items = root.all("entry").map { entry in
                let link = entry.all("link").first { ($0.attributes["rel"] ?? "alternate") == "alternate" } ?? entry.first("link")
                return Item(
                    title: Self.atomText(entry.first("title")), link: link?.attributes["href"],
                    published: (entry.first("published") ?? entry.first("updated")).flatMap { Self.rfc3339($0.text) })
            }
        default:
            throw SourceProblem("<\(root.name)> is neither an RSS feed (<rss>, <rdf:RDF>) nor an Atom feed (<feed>)")
        }
    }

    private static func rssItem(_ item: XMLElement) -> Item {
        let date = item.first("pubDate").flatMap { RFC822Date.parse($0.text) } ?? item.first("date").flatMap { rfc3339($0.text) }
        let title = plain(item.first("title")?.text ?? item.first("description")?.text ?? "")
        return Item(title: title, link: item.first("link").map { plain($0.text) }, published: date)
    }

    /// Atom text: `type="html"` is markup as text, `xhtml` is markup as elements; both shown plain.
    private static func atomText(_ element: XMLElement?) -> String {
        guard let element else { return "" }
        return plain(element.attributes["type"] == "html" ? stripTags(element.text) : element.text)
    }

    static func rfc3339(_ text: String) -> Date? {
        let trimmed = plain(text)
        return (try? Date(trimmed, strategy: .iso8601)) ?? (try? Date(trimmed, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
    }

    /// Tags out, entities a title's HTML may carry read.
    static func stripTags(_ html: String) -> String {
        var output = "", inTag = false
        for character in html {
            if character == "<" { inTag = true } else if character == ">" { inTag = false } else if !inTag { output.append(character) }
        }
        return output.replacing("&amp;", with: "&").replacing("&lt;", with: "<").replacing("&gt;", with: ">")
            .replacing("&quot;", with: "\"").replacing("&#39;", with: "'").replacing("&nbsp;", with: " ")
    }

    /// Whitespace runs (a title split over lines) as one space, none at the ends.
    static func plain(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}

/// RFC 822 dates as RSS writes them: `Sat, 07 Sep 2002 00:00:01 GMT`, `Wed, 02 Oct 2002 13:00:00 +0200`.
enum RFC822Date {
    static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    static let zones: [String: Int] = [
        "gmt": 0, "ut": 0, "utc": 0, "z": 0, "est": -5, "edt": -4, "cst": -6, "cdt": -5, "mst": -7, "mdt": -6, "pst": -8, "pdt": -7
    ]

    static func parse(_ text: String) -> Date? {
        var parts = text.split(whereSeparator: { $0.isWhitespace }).map(String.init)
        if let first = parts.first, first.hasSuffix(",") || Int(first) == nil { parts.removeFirst() }
        guard parts.count >= 4, let day = Int(parts[0]), let month = months.firstIndex(of: String(parts[1].lowercased().prefix(3))),
            var year = Int(parts[2])
        else { return nil }
        if year < 100 { year += year < 50 ? 2000 : 1900 }
        let clock = parts[3].split(separator: ":").compactMap { Int($0) }
        guard clock.count >= 2, (1...31).contains(day) else { return nil }
        var offset = 0
        if parts.count >= 5 {
            let zone = parts[4]
            if let named = zones[zone.lowercased()] {
                offset = named * 3600
            } else if zone.count == 5, let sign = zone.first, sign == "+" || sign == "-", let digits = Int(zone.dropFirst()) {
                offset = (sign == "-" ? -1 : 1) * ((digits / 100) * 3600 + (digits % 100) * 60)
            }
        }
        let days = CivilDate.days(year: year, month: month + 1, day: day)
        let seconds = days * 86_400 + Int64(clock[0] * 3600 + clock[1] * 60 + (clock.count > 2 ? clock[2] : 0)) - Int64(offset)
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }
}

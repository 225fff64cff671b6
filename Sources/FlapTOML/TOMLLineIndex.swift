import FoundationEssentials

/// Where each key of a TOML file is written, so configuration errors can name the line.
/// (The TOML parser reports positions only for syntax errors.) It reads table headers
/// (`[messages]`, `[[panel]]`, counting array entries) and `key =` lines; keys it cannot place
/// (inline tables) get their table's line.
public struct TOMLLineIndex: Sendable {
    private var lines: [String: Int] = [:]

    /// Finds the line of each key in `text`.
    public init(_ text: String) {
        var table = ""
        var arrayCounts: [String: Int] = [:]
        // CRLF lines too: in Swift "\r\n" is one Character, which split(separator: "\n") never finds.
        for (number, raw) in text.unicodeScalars.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" }).map({ Substring($0) })
            .enumerated()
        {
            let line = raw.withoutBlankEnds
            if line.hasPrefix("[["), let end = line.firstRange(of: "]]") {
                let name = line[line.index(line.startIndex, offsetBy: 2)..<end.lowerBound].withoutBlankEnds
                let index = arrayCounts[name, default: 0]
                arrayCounts[name] = index + 1
                table = "\(name)[\(index)]"
                lines[table] = number + 1
            } else if line.hasPrefix("["), let end = line.firstIndex(of: "]") {
                table = line[line.index(after: line.startIndex)..<end].withoutBlankEnds
                lines[table] = number + 1
            } else if let equals = line.firstIndex(of: "="), !line.hasPrefix("#") {
                let key = String(
                    line[..<equals].withoutBlankEnds.trimmingPrefix(while: { $0 == "\"" || $0 == "'" }).reversed().drop(while: {
                        $0 == "\"" || $0 == "'"
                    }).reversed())
                lines[table.isEmpty ? key : "\(table).\(key)"] = number + 1
            }
        }
    }

    /// The line of `path`, or of the nearest enclosing table.
    public func line(of path: String) -> Int? {
        var path = path
        while true {
            if let line = lines[path] { return line }
            guard let dot = path.lastIndex(of: ".") else { return nil }
            path = String(path[..<dot])
        }
    }
}

private extension StringProtocol {
    var withoutBlankEnds: String {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(self[first...last])
    }
}

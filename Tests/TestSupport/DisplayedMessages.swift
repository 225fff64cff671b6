import Foundation

/// How often each message was shown, from flapd logs: one "panel rested … message=ID" line per
/// time a panel came to rest on it.
public func timesShown(inLog log: String) -> [String: Int] {
    var shown: [String: Int] = [:]
    for line in log.split(separator: "\n") where line.contains("panel rested") {
        if let range = line.range(of: "message=") {
            let id = String(line[range.upperBound...].prefix { $0 != " " })
            if id != "-" { shown[id, default: 0] += 1 }
        }
    }
    return shown
}

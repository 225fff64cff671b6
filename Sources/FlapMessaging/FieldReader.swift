import Foundation

/// Reads typed fields from a decoded JSON object, collecting a problem for each wrong one.
public struct FieldReader {
    var fields: [String: Any]
    var prefix = ""
    public internal(set) var problems: [MessageErrors.Problem] = []

    public init(fields: [String: Any], prefix: String = "") {
        self.fields = fields
        self.prefix = prefix
    }

    public mutating func fail(_ field: String, _ problem: String) {
        problems.append(.init(field: prefix + field, problem: problem))
    }

    private mutating func value(_ field: String, required: Bool) -> Any? {
        guard let value = fields[field], !(value is NSNull) else {
            if required { fail(field, "is missing") }
            return nil
        }
        return value
    }

    public mutating func string(_ field: String, required: Bool = false) -> String? {
        guard let value = value(field, required: required) else { return nil }
        guard let string = value as? String else { fail(field, "must be a string"); return nil }
        return string
    }

    public mutating func int(_ field: String) -> Int? {
        guard let value = value(field, required: false) else { return nil }
        guard let number = value as? NSNumber, !Self.isBool(number), let int = Int(exactly: number.doubleValue) else {
            fail(field, "must be a whole number")
            return nil
        }
        return int
    }

    public mutating func bool(_ field: String) -> Bool? {
        guard let value = value(field, required: false) else { return nil }
        guard let number = value as? NSNumber, Self.isBool(number) else { fail(field, "must be true or false"); return nil }
        return number.boolValue
    }

    mutating func object(_ field: String) -> [String: Any]? {
        guard let value = value(field, required: false) else { return nil }
        guard let object = value as? [String: Any] else { fail(field, "must be an object"); return nil }
        return object
    }

    mutating func enumeration<E: RawRepresentable & CaseIterable>(_ field: String, _: E.Type) -> E? where E.RawValue == String {
        guard let text = string(field) else { return nil }
        guard let value = E(rawValue: text) else {
            fail(field, "\(text.debugDescription) is not one of \(E.allCases.map(\.rawValue).joined(separator: ", "))")
            return nil
        }
        return value
    }

    /// An RFC 3339 time from 1970 to 9999 (what every reader of a receipt can parse back).
    mutating func date(_ text: String, field: String) -> Date? {
        guard let date = (try? Date(text, strategy: .iso8601)) ?? (try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))) else {
            fail(field, "\(text.debugDescription) is not an ISO 8601 time such as 2026-11-22T08:30:00Z")
            return nil
        }
        guard date.timeIntervalSince1970 >= 0, date <= MessageParser.latestDate else {
            fail(field, "\(text.debugDescription) is outside 1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z")
            return nil
        }
        return date
    }

    /// Rows of `T`: every wrong cell named by its row and column (0-based, as JSON indexes).
    mutating func grid<T>(_ field: String, as: T.Type, typeName: String) -> [[T]]? {
        guard let value = value(field, required: false) else { return nil }
        guard let rows = value as? [Any] else { fail(field, "must be an array of rows"); return nil }
        var grid: [[T]] = []
        var ok = true
        for (r, row) in rows.enumerated() {
            guard let cells = row as? [Any] else { fail("\(field)[\(r)]", "must be an array"); ok = false; continue }
            var out: [T] = []
            for (c, cell) in cells.enumerated() {
                if let number = cell as? NSNumber, Self.isBool(number) {
                    fail("\(field)[\(r)][\(c)]", "must be \(typeName)"); ok = false
                } else if T.self == Int.self, let number = cell as? NSNumber, let int = Int(exactly: number.doubleValue) {
                    out.append(int as! T)
                } else if let typed = cell as? T, T.self != Int.self {
                    out.append(typed)
                } else {
                    fail("\(field)[\(r)][\(c)]", "must be \(typeName)"); ok = false
                }
            }
            grid.append(out)
        }
        return ok ? grid : nil
    }

    static func isBool(_ number: NSNumber) -> Bool {
        // JSONSerialization gives booleans as NSNumber; tell them apart from 0 and 1.
        String(cString: number.objCType) == "c" || type(of: number) != type(of: NSNumber(value: 1))
    }
}

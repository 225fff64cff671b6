import FlapJSON
import FoundationEssentials

/// Reads typed fields from a decoded JSON object, collecting a problem for each wrong one.
public struct FieldReader {
    var fields: [String: JSONValue]
    var prefix = ""
    /// Every problem found so far, each naming its field.
    public internal(set) var problems: [MessageErrors.Problem] = []

    /// A reader of `fields`; `prefix` goes before each field's name in problems (`transition.`).
    public init(fields: [String: JSONValue], prefix: String = "") {
        self.fields = fields
        self.prefix = prefix
    }

    /// Records `problem` against `field`.
    public mutating func fail(_ field: String, _ problem: String) {
        problems.append(.init(field: prefix + field, problem: problem))
    }

    /// Whether `field` is there and not null.
    func has(_ field: String) -> Bool {
        fields[field].map { !$0.isNull } ?? false
    }

    private mutating func value(_ field: String, required: Bool) -> JSONValue? {
        guard let value = fields[field], !value.isNull else {
            if required { fail(field, "is missing") }
            return nil
        }
        return value
    }

    /// `field` as a string; a problem when it is another type, or missing and `required`.
    public mutating func string(_ field: String, required: Bool = false) -> String? {
        guard let value = value(field, required: required) else { return nil }
        guard let string = value.string else { fail(field, "must be a string"); return nil }
        return string
    }

    /// `field` as a whole number; a problem when it is another type or has a fraction.
    public mutating func int(_ field: String) -> Int? {
        guard let value = value(field, required: false) else { return nil }
        guard let int = value.int else {
            fail(field, "must be a whole number")
            return nil
        }
        return int
    }

    /// `field` as true or false; a problem when it is another type.
    public mutating func bool(_ field: String) -> Bool? {
        guard let value = value(field, required: false) else { return nil }
        guard let bool = value.bool else { fail(field, "must be true or false"); return nil }
        return bool
    }

    mutating func object(_ field: String) -> [String: JSONValue]? {
        guard let value = value(field, required: false) else { return nil }
        guard let object = value.object else { fail(field, "must be an object"); return nil }
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
        guard
            let date = (try? Date(text, strategy: .iso8601)) ?? (try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
        else {
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
    mutating func grid<T>(_ field: String, typeName: String, cell read: (JSONValue) -> T?) -> [[T]]? {
        guard let value = value(field, required: false) else { return nil }
        guard let rows = value.array else { fail(field, "must be an array of rows"); return nil }
        var grid: [[T]] = []
        var ok = true
        for (r, row) in rows.enumerated() {
            guard let cells = row.array else { fail("\(field)[\(r)]", "must be an array"); ok = false; continue }
            var out: [T] = []
            out.reserveCapacity(cells.count)
            for (c, cell) in cells.enumerated() {
                if let typed = read(cell) {
                    out.append(typed)
                } else {
                    fail("\(field)[\(r)][\(c)]", "must be \(typeName)"); ok = false
                }
            }
            grid.append(out)
        }
        return ok ? grid : nil
    }
}

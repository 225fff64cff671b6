/// A value of a TOML document (toml.io, version 1.0).
enum TOMLValue: Equatable, Sendable {
    case string(String)
    case integer(Int)
    case float(Double)
    case bool(Bool)
    /// A date, time or date-time, kept as written (flapd's settings have none).
    case dateTime(String)
    case array([TOMLValue])
    case table(TOMLTable)

    var string: String? { if case .string(let value) = self { value } else { nil } }
    var int: Int? { if case .integer(let value) = self { value } else { nil } }
    var bool: Bool? { if case .bool(let value) = self { value } else { nil } }
    var array: [TOMLValue]? { if case .array(let value) = self { value } else { nil } }
    var table: TOMLTable? { if case .table(let value) = self { value } else { nil } }
}

/// A table: its keys in the order they were written, and their values.
struct TOMLTable: Equatable, Sendable {
    private(set) var keys: [String] = []
    private var values: [String: TOMLValue] = [:]

    subscript(key: String) -> TOMLValue? {
        get { values[key] }
        set {
            if values[key] == nil, newValue != nil { keys.append(key) }
            if newValue == nil { keys.removeAll { $0 == key } }
            values[key] = newValue
        }
    }
}

/// Where and why a document is not valid TOML.
struct TOMLSyntaxError: Error, Equatable, CustomStringConvertible {
    var line: Int
    var column: Int
    var message: String
    var description: String { "line \(line), column \(column): \(message)" }
}

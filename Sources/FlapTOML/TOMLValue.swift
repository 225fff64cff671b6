/// A value of a TOML document (toml.io, version 1.0).
public enum TOMLValue: Equatable, Sendable {
    case string(String)
    case integer(Int)
    case float(Double)
    case bool(Bool)
    /// A date, time or date-time, kept as written (flapd's settings have none).
    case dateTime(String)
    case array([TOMLValue])
    case table(TOMLTable)

    /// The string, if it is one.
    public var string: String? { if case .string(let value) = self { value } else { nil } }
    /// The integer, if it is one.
    public var int: Int? { if case .integer(let value) = self { value } else { nil } }
    /// The boolean, if it is one.
    public var bool: Bool? { if case .bool(let value) = self { value } else { nil } }
    /// The array, if it is one.
    public var array: [TOMLValue]? { if case .array(let value) = self { value } else { nil } }
    /// The table, if it is one.
    public var table: TOMLTable? { if case .table(let value) = self { value } else { nil } }
}

/// A table: its keys in the order they were written, and their values.
public struct TOMLTable: Equatable, Sendable {
    /// The keys, in the order they were written.
    public private(set) var keys: [String] = []
    private var values: [String: TOMLValue] = [:]

    /// An empty table.
    public init() {}

    /// The value of `key`, nil when absent; setting it keeps the order keys were first written in.
    public subscript(key: String) -> TOMLValue? {
        get { values[key] }
        set {
            if values[key] == nil, newValue != nil { keys.append(key) }
            if newValue == nil { keys.removeAll { $0 == key } }
            values[key] = newValue
        }
    }
}

/// Where and why a document is not valid TOML.
public struct TOMLSyntaxError: Error, Equatable, CustomStringConvertible {
    /// Its line, from 1.
    public var line: Int
    /// Its column, from 1.
    public var column: Int
    /// What is wrong.
    public var message: String
    /// "line L, column C: what is wrong".
    public var description: String { "line \(line), column \(column): \(message)" }
}

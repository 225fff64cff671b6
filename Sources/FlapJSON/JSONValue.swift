import FoundationEssentials

/// A JSON value as it came: what flapd reads field by field (so an error can name the field
/// that is wrong) and passes on unchanged. Parsed by FoundationEssentials' `JSONDecoder`, which
/// needs none of Foundation's `JSONSerialization` (and the ICU it brings).
public enum JSONValue: Sendable, Equatable, Codable {
    case string(String)
    case number(Double)
    case bool(Bool)
    case array([JSONValue])
    case object([String: JSONValue])
    case null

    /// Parses `bytes` (any JSON value at the top, not only an object).
    public init(parsing bytes: some Sequence<UInt8>) throws {
        self = try JSONDecoder().decode(JSONValue.self, from: Data(bytes))
    }

    /// Reads any JSON value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Writes it as the JSON it is.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .number(let value):
            // Whole numbers as integers (12, not 12.0), as they were sent.
            if let whole = Int64(exactly: value) { try container.encode(whole) } else { try container.encode(value) }
        case .bool(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        case .null: try container.encodeNil()
        }
    }

    /// The value as JSON text; an object's keys sorted, slashes as they are.
    public var text: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }

    /// The string, if it is one.
    public var string: String? { if case .string(let value) = self { value } else { nil } }
    /// The number, if it is one.
    public var number: Double? { if case .number(let value) = self { value } else { nil } }
    /// A number that is whole (3, 3.0), as an Int.
    public var int: Int? { number.flatMap { Int(exactly: $0) } }
    /// The boolean, if it is one.
    public var bool: Bool? { if case .bool(let value) = self { value } else { nil } }
    /// The array, if it is one.
    public var array: [JSONValue]? { if case .array(let value) = self { value } else { nil } }
    /// The object, if it is one.
    public var object: [String: JSONValue]? { if case .object(let value) = self { value } else { nil } }
    /// Whether it is null.
    public var isNull: Bool { self == .null }

    /// An object's member, or nil (not an object, or no such member).
    public subscript(key: String) -> JSONValue? { object?[key] }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    /// A string.
    public init(stringLiteral value: String) { self = .string(value) }
    /// A whole number.
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    /// A number.
    public init(floatLiteral value: Double) { self = .number(value) }
    /// A boolean.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An array.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// An object; a key given twice keeps its last value.
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(Dictionary(elements, uniquingKeysWith: { $1 })) }
    /// Null.
    public init(nilLiteral: ()) { self = .null }
}

extension JSONValue {
    /// Rows of whole numbers (character codes) as JSON.
    public init(rows: [[Int]]) { self = .array(rows.map { .array($0.map { .number(Double($0)) }) }) }
    /// A string, or null for nil.
    public init(_ string: String?) { self = string.map(JSONValue.string) ?? .null }
    /// A whole number.
    public init(_ number: Int) { self = .number(Double(number)) }
    /// A number.
    public init(_ number: Double) { self = .number(number) }
}

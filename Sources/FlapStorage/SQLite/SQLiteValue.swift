import FoundationEssentials

/// A value as SQLite stores it.
public enum SQLiteValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)

    /// The value in words, short: what a damaged row's report shows (never a whole text or blob).
    public var described: String {
        switch self {
        case .null: "NULL"
        case .integer(let value): "the integer \(value)"
        case .real(let value): "the number \(value)"
        case .text(let value): "text of \(value.utf8.count) bytes"
        case .blob(let value): "a blob of \(value.count) bytes"
        }
    }
}

/// A Swift type that goes into and comes out of a column.
public protocol SQLiteValueConvertible: Sendable {
    var sqliteValue: SQLiteValue { get }
    /// Nil when the stored value is not one of this type (NULL, for every non-optional type).
    init?(sqliteValue: SQLiteValue)
}

extension Int64: SQLiteValueConvertible {
    /// As SQLite stores it.
    public var sqliteValue: SQLiteValue { .integer(self) }
    /// From an integer, or a real that is a whole number; nil from anything else.
    public init?(sqliteValue: SQLiteValue) {
        switch sqliteValue {
        case .integer(let value): self = value
        case .real(let value): guard let exact = Int64(exactly: value) else { return nil }; self = exact
        default: return nil
        }
    }
}

extension Int: SQLiteValueConvertible {
    /// As SQLite stores it.
    public var sqliteValue: SQLiteValue { .integer(Int64(self)) }
    /// As ``Int64``'s.
    public init?(sqliteValue: SQLiteValue) {
        guard let value = Int64(sqliteValue: sqliteValue) else { return nil }
        self.init(value)
    }
}

extension Bool: SQLiteValueConvertible {
    /// As SQLite stores it (0 or 1).
    public var sqliteValue: SQLiteValue { .integer(self ? 1 : 0) }
    /// From an integer (not 0: true); nil from anything else.
    public init?(sqliteValue: SQLiteValue) {
        guard let value = Int64(sqliteValue: sqliteValue) else { return nil }
        self = value != 0
    }
}

extension Double: SQLiteValueConvertible {
    /// As SQLite stores it.
    public var sqliteValue: SQLiteValue { .real(self) }
    /// From a real or an integer; nil from anything else.
    public init?(sqliteValue: SQLiteValue) {
        switch sqliteValue {
        case .real(let value): self = value
        case .integer(let value): self = Double(value)
        default: return nil
        }
    }
}

extension String: SQLiteValueConvertible {
    /// As SQLite stores it.
    public var sqliteValue: SQLiteValue { .text(self) }
    /// From text; nil from anything else.
    public init?(sqliteValue: SQLiteValue) {
        switch sqliteValue {
        case .text(let value): self = value
        case .blob(let value): self = String(decoding: value, as: UTF8.self)
        case .integer(let value): self = String(value)
        case .real(let value): self = String(value)
        case .null: return nil
        }
    }
}

extension Data: SQLiteValueConvertible {
    /// As SQLite stores it.
    public var sqliteValue: SQLiteValue { .blob(self) }
    /// From a blob; nil from anything else.
    public init?(sqliteValue: SQLiteValue) {
        switch sqliteValue {
        case .blob(let value): self = value
        case .text(let value): self = Data(value.utf8)
        default: return nil
        }
    }
}

extension Optional: SQLiteValueConvertible where Wrapped: SQLiteValueConvertible {
    /// The value, or NULL.
    public var sqliteValue: SQLiteValue { self?.sqliteValue ?? .null }
    /// NULL is nil; any other value must be one of `Wrapped`.
    public init?(sqliteValue: SQLiteValue) {
        if sqliteValue == .null {
            self = .none
        } else if let value = Wrapped(sqliteValue: sqliteValue) {
            self = .some(value)
        } else {
            return nil
        }
    }
}

/// The values bound to a statement's `?` placeholders, in order.
public struct SQLiteArguments: Sendable, ExpressibleByArrayLiteral {
    /// The values, in order.
    public var values: [SQLiteValue]

    /// The arguments `values`.
    public init(_ values: [SQLiteValue] = []) { self.values = values }

    /// The arguments written as a list (`[id, name]`), nil as NULL.
    public init(arrayLiteral elements: (any SQLiteValueConvertible)?...) {
        values = elements.map { $0?.sqliteValue ?? .null }
    }
}

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
    public var sqliteValue: SQLiteValue { .integer(self) }
    public init?(sqliteValue: SQLiteValue) {
        switch sqliteValue {
        case .integer(let value): self = value
        case .real(let value): guard let exact = Int64(exactly: value) else { return nil }; self = exact
        default: return nil
        }
    }
}

extension Int: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { .integer(Int64(self)) }
    public init?(sqliteValue: SQLiteValue) {
        guard let value = Int64(sqliteValue: sqliteValue) else { return nil }
        self.init(value)
    }
}

extension Bool: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { .integer(self ? 1 : 0) }
    public init?(sqliteValue: SQLiteValue) {
        guard let value = Int64(sqliteValue: sqliteValue) else { return nil }
        self = value != 0
    }
}

extension Double: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { .real(self) }
    public init?(sqliteValue: SQLiteValue) {
        switch sqliteValue {
        case .real(let value): self = value
        case .integer(let value): self = Double(value)
        default: return nil
        }
    }
}

extension String: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { .text(self) }
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
    public var sqliteValue: SQLiteValue { .blob(self) }
    public init?(sqliteValue: SQLiteValue) {
        switch sqliteValue {
        case .blob(let value): self = value
        case .text(let value): self = Data(value.utf8)
        default: return nil
        }
    }
}

extension Optional: SQLiteValueConvertible where Wrapped: SQLiteValueConvertible {
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
    public var values: [SQLiteValue]

    public init(_ values: [SQLiteValue] = []) { self.values = values }

    public init(arrayLiteral elements: (any SQLiteValueConvertible)?...) {
        values = elements.map { $0?.sqliteValue ?? .null }
    }
}

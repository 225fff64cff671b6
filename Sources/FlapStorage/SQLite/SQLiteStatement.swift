import CSQLite
import FoundationEssentials

/// One prepared statement of a connection, run as many times as wanted with new arguments.
public final class SQLiteStatement {
    let handle: OpaquePointer
    unowned let connection: SQLiteConnection
    /// The statement's SQL.
    public let sql: String

    init(_ handle: OpaquePointer, sql: String, connection: SQLiteConnection) {
        self.handle = handle
        self.sql = sql
        self.connection = connection
    }

    deinit { sqlite3_finalize(handle) }

    /// Runs the statement to its end with `arguments`.
    public func execute(arguments: SQLiteArguments = []) throws {
        try bind(arguments)
        defer { sqlite3_reset(handle) }
        while try step() {}
    }

    /// Every row the statement gives with `arguments`.
    public func rows(arguments: SQLiteArguments = []) throws -> [SQLiteRow] {
        try bind(arguments)
        defer { sqlite3_reset(handle) }
        var rows: [SQLiteRow] = []
        while try step() { rows.append(row()) }
        return rows
    }

    /// The first row the statement gives with `arguments`, or nil.
    public func firstRow(arguments: SQLiteArguments = []) throws -> SQLiteRow? {
        try bind(arguments)
        defer { sqlite3_reset(handle) }
        return try step() ? row() : nil
    }

    private func bind(_ arguments: SQLiteArguments) throws {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        let expected = Int(sqlite3_bind_parameter_count(handle))
        guard arguments.values.count == expected else {
            throw SQLiteError(code: .misuse, message: "\(arguments.values.count) arguments for \(expected) placeholders", sql: sql)
        }
        for (offset, value) in arguments.values.enumerated() {
            let index = Int32(offset + 1)
            let result: Int32
            switch value {
            case .null: result = sqlite3_bind_null(handle, index)
            case .integer(let number): result = sqlite3_bind_int64(handle, index, number)
            case .real(let number): result = sqlite3_bind_double(handle, index, number)
            case .text(let text): result = sqlite3_bind_text(handle, index, text, -1, csqlite_transient())
            case .blob(let data):
                result = data.withUnsafeBytes { bytes in
                    // An empty blob still binds as a blob (zero bytes), not as NULL.
                    bytes.baseAddress.map { sqlite3_bind_blob(handle, index, $0, Int32(bytes.count), csqlite_transient()) }
                        ?? sqlite3_bind_zeroblob(handle, index, 0)
                }
            }
            guard result == SQLITE_OK else { throw SQLiteError(result, connection: connection.handle, sql: sql) }
        }
    }

    /// True while a row is ready; false at the end.
    private func step() throws -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let result: throw SQLiteError(result, connection: connection.handle, sql: sql)
        }
    }

    private func row() -> SQLiteRow {
        let count = sqlite3_column_count(handle)
        var values: [SQLiteValue] = []
        values.reserveCapacity(Int(count))
        for column in 0..<count { values.append(value(at: column)) }
        return SQLiteRow(columns: columnNames, values: values)
    }

    private lazy var columnNames: [String] = (0..<sqlite3_column_count(handle)).map { String(cString: sqlite3_column_name(handle, $0)) }

    private func value(at column: Int32) -> SQLiteValue {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, column))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, column))
        case SQLITE_TEXT: return .text(String(cString: sqlite3_column_text(handle, column)))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(handle, column))
            guard count > 0, let bytes = sqlite3_column_blob(handle, column) else { return .blob(Data()) }
            return .blob(Data(bytes: bytes, count: count))
        default: return .null
        }
    }
}

/// One row of a result: its values by column name.
public struct SQLiteRow: Sendable {
    /// The columns' names, in order.
    public let columns: [String]
    /// The values, in the columns' order.
    public let values: [SQLiteValue]

    /// The value of `column` as `T`. A column the query does not have, or a value that is not a
    /// `T` (NULL for a non-optional type, text where a number belongs: a file damaged or edited
    /// by hand), is thrown, so one bad row is reported and skipped, never a crash at every start.
    public subscript<T: SQLiteValueConvertible>(_ column: String) -> T {
        get throws(SQLiteRowError) {
            guard let index = columns.firstIndex(of: column) else { throw SQLiteRowError(column: column, problem: "is not in the result") }
            guard let value = T(sqliteValue: values[index]) else {
                throw SQLiteRowError(column: column, problem: "holds \(values[index].described), not \(T.self)")
            }
            return value
        }
    }

    /// The value of the column at `index` as `T`, or nil when it is not one.
    public func value<T: SQLiteValueConvertible>(at index: Int, as: T.Type = T.self) -> T? {
        index < values.count ? T(sqliteValue: values[index]) : nil
    }
}

/// A row whose column does not hold what flapd wrote there.
public struct SQLiteRowError: Error, Equatable, CustomStringConvertible {
    /// The column.
    public var column: String
    /// What is wrong with it ("is not in the result", "holds NULL, not Int").
    public var problem: String
    /// The column and the problem.
    public var description: String { "column \(column) \(problem)" }

    /// A problem of `column`.
    public init(column: String, problem: String) {
        self.column = column
        self.problem = problem
    }
}

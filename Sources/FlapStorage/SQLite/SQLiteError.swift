import CSQLite

/// What SQLite answered when a call failed: its result code, its message and the statement.
public struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A primary result code (the low byte of an extended one).
    public struct Code: RawRepresentable, Sendable, Hashable {
        /// The code's number.
        public var rawValue: Int32
        /// The primary code of `rawValue` (an extended code's low byte).
        public init(rawValue: Int32) { self.rawValue = rawValue & 0xFF }

        /// `SQLITE_ERROR`.
        public static let error = Code(rawValue: SQLITE_ERROR)
        /// `SQLITE_BUSY`.
        public static let busy = Code(rawValue: SQLITE_BUSY)
        /// `SQLITE_READONLY`.
        public static let readOnly = Code(rawValue: SQLITE_READONLY)
        /// `SQLITE_IOERR`.
        public static let ioError = Code(rawValue: SQLITE_IOERR)
        /// `SQLITE_CORRUPT`.
        public static let corrupt = Code(rawValue: SQLITE_CORRUPT)
        /// `SQLITE_FULL`.
        public static let full = Code(rawValue: SQLITE_FULL)
        /// `SQLITE_CANTOPEN`.
        public static let cantOpen = Code(rawValue: SQLITE_CANTOPEN)
        /// `SQLITE_PROTOCOL`.
        public static let `protocol` = Code(rawValue: SQLITE_PROTOCOL)
        /// `SQLITE_CONSTRAINT`.
        public static let constraint = Code(rawValue: SQLITE_CONSTRAINT)
        /// `SQLITE_NOTADB`.
        public static let notADatabase = Code(rawValue: SQLITE_NOTADB)
        /// `SQLITE_MISUSE`.
        public static let misuse = Code(rawValue: SQLITE_MISUSE)
    }

    /// The primary result code.
    public var code: Code
    /// The extended result code (SQLITE_IOERR_FSYNC and the like).
    public var extendedCode: Int32
    /// SQLite's message.
    public var message: String
    /// The statement that failed, when there was one.
    public var sql: String?

    /// An error of `code`, with SQLite's message when given (else the code's own).
    public init(code: Code, extendedCode: Int32? = nil, message: String? = nil, sql: String? = nil) {
        self.code = code
        self.extendedCode = extendedCode ?? code.rawValue
        self.message = message ?? String(cString: sqlite3_errstr(code.rawValue))
        self.sql = sql
    }

    /// The error `result` on `connection` (its message, when the connection has one).
    init(_ result: Int32, connection: OpaquePointer?, sql: String? = nil) {
        let extended = connection.map { sqlite3_extended_errcode($0) } ?? result
        let message = connection.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(result))
        self.init(code: Code(rawValue: result), extendedCode: extended, message: message, sql: sql)
    }

    /// The message, the code and the statement.
    public var description: String {
        "SQLite error \(code.rawValue): \(message)" + (sql.map { " - while executing `\($0)`" } ?? "")
    }
}

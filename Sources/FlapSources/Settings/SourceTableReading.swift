/// How a kind reads its own keys from its `[[source]]` (``SourceKind/options(reading:)``): the
/// configuration's table reader, which records each key asked for, so a key no one asked for is
/// refused, and each problem with its key and line.
public protocol SourceTableReading {
    /// A string, or nil when the key is absent (a problem when it is not a string).
    mutating func string(_ key: String) -> String?
    /// A list of strings, or nil when absent.
    mutating func strings(_ key: String) -> [String]?
    /// A whole number, or nil when absent.
    mutating func int(_ key: String) -> Int?
    /// A table of strings (`values = { temperature = "/current/temperature_2m" }`), or nil when absent.
    mutating func stringTable(_ key: String) -> [String: String]?
}

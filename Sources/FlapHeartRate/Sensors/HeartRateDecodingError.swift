import FlapHardware

/// A heart-rate value or message that does not follow its specification: what, and at which byte.
public struct HeartRateDecodingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What was being decoded (`Heart Rate Measurement (0x2A37)`, `ANT message 0x4E`).
    public var what: String
    /// The offending byte's offset from the start of the value or message (from 0), or for a
    /// text line the character's column (from 1).
    public var position: Int
    /// `byte` or `column`.
    public var unit: String
    /// What is wrong there.
    public var problem: String

    /// A problem with `what` at `byte` (from 0).
    public init(_ what: String, byte: Int, _ problem: String) {
        self.what = what
        position = byte
        unit = "byte"
        self.problem = problem
    }

    /// A problem with a text line at `column` (from 1).
    public init(_ what: String, column: Int, _ problem: String) {
        self.what = what
        position = column
        unit = "column"
        self.problem = problem
    }

    /// What, where, and what is wrong.
    public var description: String { "\(what), \(unit) \(position): \(problem)" }
}

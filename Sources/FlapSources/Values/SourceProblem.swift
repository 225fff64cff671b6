/// Why a source's content could not be read or fetched, as its health and the log say it.
public struct SourceProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, in words for the log and `/v1/sources`.
    public var description: String

    /// A problem said as `description`.
    public init(_ description: String) { self.description = description }
}

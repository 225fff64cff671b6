/// Why a source's content could not be read or fetched, as its health and the log say it.
public struct SourceProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }
}

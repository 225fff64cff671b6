/// Why a person's change to their presence was refused, naming the field.
public struct PresenceProblem: Error, Equatable, Sendable, CustomStringConvertible {
    public var field: String
    public var problem: String
    /// Refused for coming too often, not for what it says.
    public var isTooMany: Bool
    public var description: String { "\(field): \(problem)" }

    public init(field: String, problem: String, isTooMany: Bool = false) {
        self.field = field
        self.problem = problem
        self.isTooMany = isTooMany
    }
}

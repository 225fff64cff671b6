/// Why a person's change to their presence was refused, naming the field.
public struct PresenceProblem: Error, Equatable, Sendable, CustomStringConvertible {
    /// The field refused, as the request named it.
    public var field: String
    /// What is wrong with it, in words.
    public var problem: String
    /// Refused for coming too often, not for what it says.
    public var isTooMany: Bool
    /// The field and the problem, as an answer states them.
    public var description: String { "\(field): \(problem)" }

    /// A refusal of `field` for `problem`; `isTooMany` when it came too often.
    public init(field: String, problem: String, isTooMany: Bool = false) {
        self.field = field
        self.problem = problem
        self.isTooMany = isTooMany
    }
}

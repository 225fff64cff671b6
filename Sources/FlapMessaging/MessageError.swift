/// Everything wrong with a message, each problem naming its field (`codes[2][5]`, `sender.id`).
public struct MessageErrors: Error, Equatable, Sendable, CustomStringConvertible {
    /// Every problem, in the order found.
    public var problems: [Problem]

    /// One field and what is wrong with it.
    public struct Problem: Equatable, Sendable, CustomStringConvertible, Codable {
        /// The field, as a JSON path (`text`, `codes[1][3]`, `transition.stepSize`).
        public var field: String
        /// What is wrong, in words for the sender.
        public var problem: String

        /// `problem` with `field`.
        public init(field: String, problem: String) {
            self.field = field
            self.problem = problem
        }

        /// `field: problem`, or the problem alone for the message as a whole.
        public var description: String { field.isEmpty ? problem : "\(field): \(problem)" }
    }

    /// The errors `problems`.
    public init(_ problems: [Problem]) { self.problems = problems }

    /// One problem with `field`.
    public init(field: String, _ problem: String) { problems = [Problem(field: field, problem: problem)] }

    /// Every problem, joined by `; `.
    public var description: String { problems.map(\.description).joined(separator: "; ") }
}

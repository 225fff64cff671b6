/// Everything wrong with a message, each problem naming its field (`codes[2][5]`, `sender.id`).
public struct MessageErrors: Error, Equatable, Sendable, CustomStringConvertible {
    public var problems: [Problem]

    public struct Problem: Equatable, Sendable, CustomStringConvertible, Codable {
        /// The field, as a JSON path (`text`, `codes[1][3]`, `transition.stepSize`).
        public var field: String
        public var problem: String

        public init(field: String, problem: String) {
            self.field = field
            self.problem = problem
        }

        public var description: String { field.isEmpty ? problem : "\(field): \(problem)" }
    }

    public init(_ problems: [Problem]) { self.problems = problems }

    public init(field: String, _ problem: String) { problems = [Problem(field: field, problem: problem)] }

    public var description: String { problems.map(\.description).joined(separator: "; ") }
}

/// Problems in a configuration file, each naming the key and the line it is on.
public struct ConfigurationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// One problem and where it is.
    public struct Problem: Equatable, Sendable, CustomStringConvertible {
        /// The key as a path (`panel[1].period_ms`), or empty for the file as a whole.
        public var key: String
        /// 1-based line in the file, when known.
        public var line: Int?
        /// What is wrong, as a case.
        public var kind: ConfigurationProblem
        /// What is wrong, in words.
        public var problem: String { kind.description }

        /// `kind` at `key`, on `line`.
        public init(key: String, line: Int?, kind: ConfigurationProblem) {
            self.key = key
            self.line = line
            self.kind = kind
        }

        /// A table's own rule broken at `key`, on `line`, in the words `problem`.
        public init(key: String, line: Int?, problem: String) {
            self.init(key: key, line: line, kind: .rule(problem))
        }

        /// "line L, key: what is wrong".
        public var description: String {
            let place = [line.map { "line \($0)" }, key.isEmpty ? nil : key].compactMap { $0 }.joined(separator: ", ")
            return place.isEmpty ? problem : "\(place): \(problem)"
        }
    }

    /// The file the problems are in.
    public var file: String
    /// Each problem, in the file's order.
    public var problems: [Problem]

    /// Each problem on a line of its own, with the file.
    public var description: String {
        problems.map { "\(file): \($0)" }.joined(separator: "\n")
    }
}

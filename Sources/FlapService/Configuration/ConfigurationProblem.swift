/// What is wrong with one key of flapd.toml. The checks every table makes (a value's type, a
/// choice, a port, a key no table asked for) are cases a test can match; a table's own rule
/// (`quiet = "dim"` needs an LED panel) is said in its words, as ``rule(_:)``.
public enum ConfigurationProblem: Sendable, Equatable, CustomStringConvertible {
    /// A string was wanted.
    case notAString
    /// A whole number was wanted.
    case notAWholeNumber
    /// A number was wanted.
    case notANumber
    /// `true` or `false` was wanted.
    case notABoolean
    /// A port number was wanted; this was given.
    case notAPort(Int)
    /// The value is not one of the choices.
    case notOneOf(String, choices: [String])
    /// A list of strings was wanted.
    case notAListOfStrings
    /// A list of strings or whole numbers was wanted, as `example` shows.
    case notAList(example: String)
    /// A list of lists of whole numbers was wanted, as `example` shows.
    case notAListOfLists(example: String)
    /// A length of time was wanted.
    case notAnInterval
    /// The key `name` should be a table (`[name]`).
    case notATable(String)
    /// The key `name` should be an array of tables (`[[name]]`).
    case notTables(String)
    /// An element of an array of tables that is not a table.
    case notATableEntry
    /// A secret given both inline and as a file.
    case bothGiven(String, file: String)
    /// A key this table does not take: the nearest one it does (when one is close), and all it does.
    case unknownKey(suggestion: String?, known: [String])
    /// Another kind's key, in words naming whose it is ("baud is a setting of an ant or serial sensor").
    case elsewhere(String)
    /// A table's own rule, in its words.
    case rule(String)

    /// What is wrong, in the words the file's author reads.
    public var description: String {
        switch self {
        case .notAString: "must be a string (in quotes)"
        case .notAWholeNumber: "must be a whole number"
        case .notANumber: "must be a number"
        case .notABoolean: "must be true or false"
        case .notAPort(let port): "must be a port number, 1 to 65535 (0: any free port), not \(port)"
        case .notOneOf(let value, let choices): "\(value.debugDescription) is not one of \(choices.joined(separator: ", "))"
        case .notAListOfStrings: "must be a list of strings, such as [\"kitchen\", \"phone\"]"
        case .notAList(let example): "must be a list, such as \(example)"
        case .notAListOfLists(let example): "must be a list of lists of whole numbers, such as \(example)"
        case .notAnInterval: "must be seconds (600) or a time with its unit (\"30s\", \"10m\", \"2h\", \"1d\")"
        case .notATable(let name): "must be a table ([\(name)])"
        case .notTables(let name): "must be written as [[\(name)]] tables"
        case .notATableEntry: "must be a table"
        case .bothGiven(let name, let file): "give \(name) or \(file), not both"
        case .unknownKey(let suggestion, let known):
            "unknown key\(suggestion.map { " (did you mean \($0)?)" } ?? ""); known keys here: \(known.joined(separator: ", "))"
        case .elsewhere(let words), .rule(let words): words
        }
    }
}

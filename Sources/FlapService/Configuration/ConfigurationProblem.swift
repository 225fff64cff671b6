/// What is wrong with one key of flapd.toml. The checks every table makes (a value's type, a
/// choice, a port, a key no table asked for) are cases a test can match; a table's own rule
/// that no other table shares is said in its words, as ``rule(_:)``.
public enum ConfigurationProblem: Sendable, Equatable, CustomStringConvertible {
    /// A string was wanted.
    case notAString
    /// A whole number was wanted.
    case notAWholeNumber
    /// A number was wanted.
    case notANumber
    /// A string or a whole number was wanted.
    case notATextOrWholeNumber
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
    /// Two keys of which one may be given, both given (a secret inline and as a file; a size and
    /// its rows).
    case notBoth(String, String)
    /// A value outside what the key allows (`allowed`: "50 to 200 ms", "at least 1"), and what
    /// was given when the words name it.
    case outOfRange(given: String?, allowed: String)
    /// Another entry of the same kind (a panel, a source) has this name.
    case nameTaken(String, kind: String, key: String)
    /// An address that is not http:// or https://.
    case notAnHTTPAddress(String)
    /// A span of local time that is not `HH:MM-HH:MM`.
    case notASpanOfTime(String)
    /// A key that means something only beside another setting (`rotate_seconds` beside
    /// `policy = "rotate"`): the key, and that setting in words.
    case onlyFor(String, String)
    /// Something a table or setting cannot do without: what needs it (`"[mqtt]"`, `"an rs485
    /// panel"`), and what it needs, with an example.
    case needs(String, String)
    /// A value that cannot be left out, in words, and how to give it.
    case isNeeded(String, example: String)
    /// A key given without its partner: the partner, and why it is wanted.
    case givenWithout(String, why: String)
    /// A value not written in the form the key takes (`"HH:MM=PERCENT"`), with an example.
    case notInForm(String, form: String)
    /// Keys of which only one may be given, more than one given.
    case onlyOne(of: [String])
    /// A value given twice where each must be different (`"module ID 7"`).
    case givenTwice(String)
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
        case .notATextOrWholeNumber: "must be a text or a whole number"
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
        case .notBoth(let one, let other): "give \(one) or \(other), not both"
        case .outOfRange(let given, let allowed): "must be \(allowed)\(given.map { ", not \($0)" } ?? "")"
        case .nameTaken(let name, let kind, let key): "another \(kind) is called \(name) too; give each its own \(key)"
        case .notAnHTTPAddress(let url): "\(url.debugDescription) is not an http:// or https:// address"
        case .notASpanOfTime(let text): "\(text.debugDescription) is not a span of local time such as \"22:00-07:00\""
        case .onlyFor(let key, let setting): "\(key) is for \(setting)"
        case .needs(let subject, let wanted): "\(subject) needs \(wanted)"
        case .isNeeded(let what, let example): "\(what) is needed: \(example)"
        case .givenWithout(let partner, let why): "give \(partner) too: \(why)"
        case .notInForm(let value, let form): "\(value.debugDescription) is not \(form)"
        case .onlyOne(let keys): "give one of \(keys.dropLast().joined(separator: ", ")) and \(keys.last ?? "")"
        case .givenTwice(let what): "\(what) is given twice"
        case .unknownKey(let suggestion, let known):
            "unknown key\(suggestion.map { " (did you mean \($0)?)" } ?? ""); known keys here: \(known.joined(separator: ", "))"
        case .elsewhere(let words), .rule(let words): words
        }
    }
}

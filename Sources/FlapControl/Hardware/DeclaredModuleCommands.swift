import FlapJSON

/// `GET /v1/panels/{panel}/modules`: the commands a panel's modules take, as its driver declares
/// them, and a command line's words read by that declaration.
struct DeclaredModuleCommands: Decodable {
    var commands: [Command]

    struct Command: Decodable {
        var name: String
        var help: String
        var synopsis: String
        var arguments: [Argument]
    }

    struct Argument: Decodable {
        var name: String
        var type: String
        var help: String
        var minimum: Int?
        var maximum: Int?
    }

    /// The list `flapctl module` prints with no command.
    func text(panel: String) -> String {
        let width = (commands.map(\.synopsis.count).max() ?? 0) + 2
        let lines = commands.map { command -> String in
            let arguments = command.arguments.map { "\($0.name.uppercased()): \($0.help)\(Self.range($0))" }
            let padding = String(repeating: " ", count: max(0, width - command.synopsis.count))
            return "  " + command.synopsis + padding + ([command.help] + arguments).joined(separator: "; ")
        }
        return (["the modules of panel \(panel) take (flapctl module --row R --column C COMMAND …):"] + lines).joined(separator: "\n")
    }

    /// The request's body for `words` (the command, then its arguments in order), or what is
    /// wrong with them, in the declaration's terms.
    func body(_ words: [String], row: Int, column: Int) throws -> [String: JSONValue] {
        let synopses = commands.map(\.synopsis).joined(separator: ", ")
        guard let name = words.first, let command = commands.first(where: { $0.name == name }) else {
            throw InputError("\(words.first ?? ""): not a command of these modules; they take \(synopses)")
        }
        let given = words.dropFirst()
        guard given.count == command.arguments.count else {
            throw InputError("\(name) takes \(command.arguments.count == 0 ? "nothing" : command.synopsis) (\(given.count) given)")
        }
        var body: [String: JSONValue] = ["row": JSONValue(row), "column": JSONValue(column), "command": .string(name)]
        for (argument, word) in zip(command.arguments, given) {
            body[argument.name] = try Self.value(word, for: argument, of: name)
        }
        return body
    }

    private static func value(_ word: String, for argument: Argument, of command: String) throws -> JSONValue {
        switch argument.type {
        case "integer":
            guard let number = Int(word), number >= (argument.minimum ?? .min), number <= (argument.maximum ?? .max) else {
                throw InputError("\(command) takes \(argument.name.uppercased()), a whole number\(range(argument)), not \(word)")
            }
            return JSONValue(number)
        case "boolean":
            guard let on = ["on": true, "true": true, "off": false, "false": false][word] else {
                throw InputError("\(command) takes \(argument.name.uppercased()), on or off, not \(word)")
            }
            return .bool(on)
        default: return .string(word)
        }
    }

    private static func range(_ argument: Argument) -> String {
        guard let minimum = argument.minimum, let maximum = argument.maximum else { return "" }
        return " from \(minimum) to \(maximum)"
    }
}

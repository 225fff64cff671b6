import FlapJSON

/// A tool call's arguments, checked against the tool's input schema before anything is sent:
/// an argument the tool does not take, a required one missing or one of the wrong kind is named.
/// What the values mean (a text the board cannot show, a date in the past) the API checks.
struct ToolArguments: Sendable {
    let values: [String: JSONValue]

    init(_ values: [String: JSONValue], for tool: BoardTool) throws(ToolInputError) {
        var problems: [String] = []
        for name in values.keys.sorted() where tool.parameter(name) == nil {
            let known = tool.parameters.map(\.name)
            problems.append("\(name): \(tool.name) takes no such argument" + (known.isEmpty ? "" : " (it takes \(known.joined(separator: ", ")))"))
        }
        for parameter in tool.parameters {
            guard let value = values[parameter.name] else {
                if parameter.required { problems.append("\(parameter.name): is missing") }
                continue
            }
            if let problem = parameter.kind.problem(value) { problems.append("\(parameter.name): \(problem)") }
        }
        guard problems.isEmpty else { throw ToolInputError(problems: problems) }
        self.values = values
    }

    subscript(name: String) -> JSONValue? { values[name] }

    func string(_ name: String) -> String? { values[name]?.string }

    /// The arguments named, as a JSON object for the API's body (those not given left out).
    func body(_ names: [String]) -> JSONValue {
        .object(values.filter { names.contains($0.key) })
    }
}

/// Arguments that do not fit a tool's schema.
struct ToolInputError: Error {
    var problems: [String]
    var description: String { problems.joined(separator: "\n") }
}

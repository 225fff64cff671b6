import FlapJSON

/// One tool: its name, what it does, its arguments (which make its input schema), whether it
/// only reads or can remove something, and how it is done through the native API.
struct BoardTool: Sendable {
    var name: String
    var title: String
    var description: String
    var parameters: [Parameter] = []
    var readOnly = false
    var destructive = false
    var run: @Sendable (ToolArguments, any FlapdAPI) async throws -> ToolResult

    struct Parameter: Sendable {
        var name: String
        var kind: Kind
        var description: String
        var required = false
    }

    /// What JSON an argument takes, for its schema and for the first check of a call.
    enum Kind: Sendable {
        case string
        case oneOf([String])
        case integer(ClosedRange<Int>)
        case boolean
        /// Rows of character codes.
        case codeRows
        /// Rows of strings (a pattern's colour letters).
        case stringRows
        case strings
        case object([String: JSONValue])

        var schema: JSONValue {
            switch self {
            case .string: ["type": "string"]
            case .oneOf(let names): ["type": "string", "enum": .array(names.map(JSONValue.string))]
            case .integer(let range): ["type": "integer", "minimum": JSONValue(range.lowerBound), "maximum": JSONValue(range.upperBound)]
            case .boolean: ["type": "boolean"]
            case .codeRows: ["type": "array", "items": ["type": "array", "items": ["type": "integer"]]]
            case .stringRows: ["type": "array", "items": ["type": "array", "items": ["type": "string"]]]
            case .strings: ["type": "array", "items": ["type": "string"]]
            case .object(let properties): ["type": "object", "properties": .object(properties)]
            }
        }

        /// What is wrong with `value` for this kind, or nil.
        func problem(_ value: JSONValue) -> String? {
            switch self {
            case .string: return value.string == nil ? "must be a string" : nil
            case .oneOf(let names):
                guard let text = value.string, names.contains(text) else { return "must be one of \(names.joined(separator: ", "))" }
                return nil
            case .integer(let range):
                guard let number = value.int else { return "must be a whole number" }
                return range.contains(number) ? nil : "must be from \(range.lowerBound) to \(range.upperBound), not \(number)"
            case .boolean: return value.bool == nil ? "must be true or false" : nil
            case .codeRows, .stringRows, .strings:
                // The rows' contents are the API's to check, with row and column in its message.
                return value.array == nil ? "must be a list" : nil
            case .object: return value.object == nil ? "must be an object" : nil
            }
        }
    }

    func parameter(_ name: String) -> Parameter? { parameters.first { $0.name == name } }

    /// The tool as `tools/list` describes it.
    var listing: JSONValue {
        var properties: [String: JSONValue] = [:]
        for parameter in parameters {
            var schema = parameter.kind.schema.object ?? [:]
            schema["description"] = .string(parameter.description)
            properties[parameter.name] = .object(schema)
        }
        var input: [String: JSONValue] = ["type": "object", "properties": .object(properties), "additionalProperties": false]
        let required = parameters.filter(\.required).map { JSONValue.string($0.name) }
        if !required.isEmpty { input["required"] = .array(required) }
        return [
            "name": .string(name), "title": .string(title), "description": .string(description), "inputSchema": .object(input),
            "annotations": [
                "title": .string(title), "readOnlyHint": .bool(readOnly), "destructiveHint": .bool(destructive),
                "idempotentHint": .bool(readOnly), "openWorldHint": false
            ]
        ]
    }
}

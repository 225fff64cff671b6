import FlapJSON

/// A tool's answer as MCP carries it: text an assistant reads, the same as JSON
/// (`structuredContent`) when there is JSON, and `isError` when the input or the state was wrong.
public struct ToolResult: Sendable, Equatable {
    /// What the tool says, in words.
    public var text: String
    /// The same as JSON, when there is JSON.
    public var structured: JSONValue?
    /// Whether the input or the state was wrong.
    public var isError: Bool

    /// A result saying `text`, with `structured` JSON when there is some.
    public init(text: String, structured: JSONValue? = nil, isError: Bool = false) {
        self.text = text
        self.structured = structured
        self.isError = isError
    }

    /// A refusal: what was wrong, named by field, as the HTTP API says it.
    public static func refused(_ text: String, structured: JSONValue? = nil) -> ToolResult {
        ToolResult(text: text, structured: structured, isError: true)
    }

    /// The answer's JSON: a readable line first when there is one, then the JSON itself, which
    /// MCP asks servers to repeat as text for clients that do not read structured content.
    static func answer(_ summary: String?, _ json: JSONValue?) -> ToolResult {
        guard let json else { return ToolResult(text: summary ?? "done") }
        // Structured content must be an object; a list is wrapped so it can still be sent.
        let structured: JSONValue = json.object != nil ? json : ["value": json]
        return ToolResult(text: [summary, structured.text].compactMap { $0 }.joined(separator: "\n"), structured: structured)
    }

    var json: JSONValue {
        var result: [String: JSONValue] = ["content": [["type": "text", "text": .string(text)]], "isError": .bool(isError)]
        if let structured { result["structuredContent"] = structured }
        return .object(result)
    }
}

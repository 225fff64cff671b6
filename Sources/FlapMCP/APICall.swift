import FlapEndpoints
import FlapJSON

extension FlapdAPI {
    /// A request whose answer becomes the tool's: a refusal (4xx, 5xx) as an error result with the
    /// API's own words, anything else as its JSON with `summary`'s line before it.
    func call(
        _ request: EndpointRequest, body: JSONValue? = nil, headers: [(String, String)] = [],
        summary: (JSONValue?) -> String? = { _ in nil }
    ) async throws -> ToolResult {
        let answer = try await send(request, body: body, headers: headers)
        guard answer.status < 400 else { return .refused(answer.refusal, structured: answer.json) }
        let json = answer.json
        return .answer(summary(json), json)
    }

    /// ``call(_:body:headers:summary:)`` to `endpoint` with `values` for its parameters.
    func call(
        _ endpoint: Endpoint, _ values: String..., query: [(String, String)] = [], body: JSONValue? = nil, headers: [(String, String)] = [],
        summary: (JSONValue?) -> String? = { _ in nil }
    ) async throws -> ToolResult {
        try await call(endpoint.request(values, query: query), body: body, headers: headers, summary: summary)
    }

    /// ``send(_:body:)`` to `endpoint` with `values` for its parameters.
    func send(_ endpoint: Endpoint, _ values: String..., body: JSONValue? = nil) async throws -> APIAnswer {
        try await send(endpoint.request(values), body: body)
    }
}

extension JSONValue {
    /// A board's rows as lines between bars, so blank flaps at either end can be seen.
    static func boardLines(_ rows: JSONValue?) -> String {
        (rows?.array ?? []).compactMap(\.string).map { "|\($0)|" }.joined(separator: "\n")
    }

    /// A panel of `GET /v1/board` as text: its name, whether it moves, its rows.
    static func panelText(_ panel: JSONValue) -> String {
        let state = panel["moving"]?.bool == true ? "moving" : "at rest"
        return "panel \(panel["id"]?.string ?? "?") (\(state)):\n" + boardLines(panel["text"])
    }
}

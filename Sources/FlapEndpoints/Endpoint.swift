import HTTPTypes

/// One endpoint of flapd's API: a method, a path, what it takes and what it answers, declared once in the table
/// (`EndpointTable.swift`) that the router serves, flapctl and the MCP tools call, and a test
/// holds to the OpenAPI description.
public struct Endpoint: Sendable, Hashable, CustomStringConvertible {
    /// Its name in the table, which is its `operationId` in the OpenAPI description and its name
    /// in the web page's `endpoints.js`: `sendMessage`.
    public let name: String
    /// Its HTTP method.
    public let method: HTTPRequest.Method
    /// As the OpenAPI description spells it, parameters in braces: `/v1/messages/{id}`.
    public let path: String

    /// The schema its JSON body follows, as the OpenAPI description names it (`Message`), or
    /// nil when it takes no body.
    public let body: String?
    /// What it answers with success: JSON of a named schema, a body of another type, or nil for
    /// no body (204).
    public let answer: Payload?

    init(_ name: String, _ method: HTTPRequest.Method, _ path: String, body: String? = nil, answer: Payload? = nil) {
        self.name = name
        self.body = body
        self.answer = answer
        self.method = method
        self.path = path
    }

    /// `DELETE /v1/messages/{id}`: as docs/api.md and error messages name it.
    public var description: String { "\(method.rawValue) \(path)" }

    /// Its path parameters' names, in order: `["id"]`.
    public var parameters: [String] {
        path.split(separator: "/").compactMap { $0.first == "{" ? String($0.dropFirst().dropLast()) : nil }
    }

    /// This endpoint asked with `values` for its parameters, in order, each escaped to stay one
    /// segment, and `query`'s pairs escaped after a `?`. A value short leaves its segment empty,
    /// which the server answers 404: a caller's slip, found by its tests, never a crash.
    public func request(_ values: [String], query: [(String, String)] = []) -> EndpointRequest {
        var remaining = values[...]
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).map { segment -> String in
            guard segment.first == "{" else { return String(segment) }
            return remaining.popFirst()?.pathSegment ?? ""
        }
        var target = segments.joined(separator: "/")
        if !query.isEmpty { target += "?" + query.map { $0.0.pathSegment + "=" + $0.1.pathSegment }.joined(separator: "&") }
        return EndpointRequest(endpoint: self, target: target)
    }

    /// ``request(_:query:)`` with its values written out.
    public func request(_ values: String..., query: [(String, String)] = []) -> EndpointRequest {
        request(values, query: query)
    }
}

/// What an endpoint answers with success.
public enum Payload: Sendable, Hashable {
    /// JSON following the schema the OpenAPI description names so (`Accepted`).
    case json(String)
    /// A body of this media type (`image/png`, `text/event-stream`).
    case media(String)
}

/// An endpoint with its parameters filled in: what goes on the request line.
public struct EndpointRequest: Sendable, Hashable, CustomStringConvertible {
    /// The endpoint requested.
    public let endpoint: Endpoint
    /// The path and query: `/v1/receipts?limit=20`.
    public let target: String

    /// The endpoint's method.
    public var method: HTTPRequest.Method { endpoint.method }
    /// The method and target, as a log line or an error names the request.
    public var description: String { "\(endpoint.method.rawValue) \(target)" }
}

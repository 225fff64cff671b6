import FlapEndpoints
import FlapJSON

/// The native API as the tools reach it: in flapd, its own router (the request never leaves the
/// process); in `flapctl mcp`, a running flapd over HTTP. Either way the API's own checks,
/// messages and privacy apply, because the tools go through it.
public protocol FlapdAPI: Sendable {
    /// One request to an endpoint of the table, with a JSON body or none, and `headers` beside
    /// the key's (such as `Idempotency-Key`).
    func send(_ request: EndpointRequest, body: JSONValue?, headers: [(String, String)]) async throws -> APIAnswer
}

extension FlapdAPI {
    /// ``send(_:body:headers:)`` with no headers of its own.
    public func send(_ request: EndpointRequest, body: JSONValue? = nil) async throws -> APIAnswer {
        try await send(request, body: body, headers: [])
    }
}

/// An answer of the native API.
public struct APIAnswer: Sendable {
    /// The HTTP status.
    public var status: Int
    /// The body as it came.
    public var body: [UInt8]

    /// An answer of `status` carrying `body`.
    public init(status: Int, body: [UInt8]) {
        self.status = status
        self.body = body
    }

    /// The body as JSON; nil when it is empty or not JSON.
    public var json: JSONValue? { body.isEmpty ? nil : try? JSONValue(parsing: body) }

    /// What the API said was wrong (`error`, and each field's problem when it named several).
    var refusal: String {
        guard let object = json?.object, let error = object["error"]?.string else {
            return "flapd answered \(status): \(String(decoding: body.prefix(300), as: UTF8.self))"
        }
        let fields =
            object["errors"]?.array?.compactMap { problem -> String? in
                guard let field = problem["field"]?.string, let text = problem["problem"]?.string else { return nil }
                return "\(field): \(text)"
            } ?? []
        return fields.count > 1 ? fields.joined(separator: "\n") : error
    }
}

import FlapEndpoints
import FlapJSON
import FlapMCP
import HTTPTypes
import Hummingbird
import NIOCore

/// The native API reached from inside flapd: a tool's request goes through the same router, and
/// so the same checks, as one from the network, without leaving the process.
struct RouterAPI: FlapdAPI {
    let responder: RouterResponder<APIRequestContext>
    /// The context of the MCP request the tool call came in (its connection and logger).
    let context: APIRequestContext
    let key: String

    func send(_ request: EndpointRequest, body: JSONValue?, headers: [(String, String)]) async throws -> APIAnswer {
        var head = HTTPRequest(method: request.method, scheme: "http", authority: "localhost", path: request.target)
        for (name, value) in headers { if let field = HTTPField.Name(name) { head.headerFields[field] = value } }
        head.headerFields[.authorization] = "Bearer \(key)"
        var bytes = ByteBuffer()
        if let body {
            head.headerFields[.contentType] = "application/json"
            bytes = ByteBuffer(string: body.text)
        }
        let response = try await responder.respond(to: Request(head: head, body: .init(buffer: bytes)), context: context)
        return APIAnswer(status: response.status.code, body: Array(try await response.body.collected().readableBytesView))
    }
}

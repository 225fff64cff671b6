import FlapEndpoints
import FlapJSON
import FlapMCP
import HTTPTypes
import Hummingbird
import NIOCore
import ServiceLifecycle

/// `/mcp`: the MCP server over Streamable HTTP. A client POSTs one JSON-RPC message at a time
/// and gets its answer as JSON (or as a one-event stream, to a client that takes only
/// `text/event-stream`); `initialize` opens a session (`Mcp-Session-Id`), DELETE ends it. A GET
/// opens the session's event stream, which tells it when a resource it subscribed to changed
/// (the board came to rest on something new).
/// The same key as `/v1`, given as a bearer token; the Host must be one of flapd's names and a
/// browser's Origin flapd's own.
struct MCPEndpoint {
    let server: MCPServer
    let key: String
    let hosts: MCPHosts
    let sessions: MCPSessions<ContinuousClock>
    /// The native API's routes, which the tools go through.
    let api: RouterResponder<APIRequestContext>
    /// The boards as they change, for the sessions' event streams; none, no GET.
    let live: LiveBoards?

    static let sessionHeader = HTTPField.Name.mcpSessionID
    static let versionHeader = HTTPField.Name.mcpProtocolVersion

    func add(to router: Router<APIRequestContext>) {
        router.on(.mcpMessage) { request, context in
            if let refusal = await refusal(request) { return refusal }
            return try await post(request, context: context)
        }
        router.on(.mcpStream) { request, _ in
            if let refusal = await refusal(request) { return refusal }
            return await stream(request)
        }
        router.on(.mcpEndSession) { request, _ in
            if let refusal = await refusal(request) { return refusal }
            guard let id = request.headers[Self.sessionHeader] else {
                return Responses.error(.badRequest, "give the session to end in Mcp-Session-Id")
            }
            guard await sessions.close(id) else { return Responses.error(.notFound, "no open MCP session \(id)") }
            return Response(status: .noContent)
        }
    }

    /// The answer to a request that may not go further: a Host that is not flapd's, a page of
    /// another site, no key or a wrong one.
    private func refusal(_ request: Request) async -> Response? {
        let authority = request.head.authority ?? ""
        guard hosts.allows(authority) else {
            return Responses.error(
                .misdirectedRequest,
                "flapd does not answer to the host \(authority.debugDescription) here; "
                    + "add it to [api] allowed_hosts if it is one of this machine's names")
        }
        // A browser says where the page is; MCP clients are programs and send no Origin.
        if let origin = request.headers[.origin], !Authentication.sameOrigin(request) {
            return Responses.error(
                .forbidden, "a request from the page \(origin) is refused: MCP clients are programs, and flapd's own page is \(authority)")
        }
        let header = request.headers[.authorization] ?? ""
        guard let token = Authentication.bearer(in: header), secretsMatch(token, key) else {
            let problem =
                header.isEmpty ? "MCP needs Authorization: Bearer <key>, flapd's API key (its file's path is in flapd's log)" : "the API key is wrong"
            return Responses.error(.unauthorized, problem, headers: [.wwwAuthenticate: "Bearer"])
        }
        return nil
    }

    private func post(_ request: Request, context: APIRequestContext) async throws -> Response {
        guard request.headers[.contentType]?.lowercased().hasPrefix("application/json") == true else {
            return Responses.error(.unsupportedMediaType, "send JSON-RPC messages as JSON, with Content-Type: application/json")
        }
        let accept = request.headers[.accept]?.lowercased() ?? "*/*"
        let asJSON = ["application/json", "*/*", "application/*"].contains(where: accept.contains)
        guard asJSON || accept.contains("text/event-stream") else {
            return Responses.error(
                .notAcceptable, "flapd answers MCP requests as application/json or text/event-stream; the request's Accept takes neither")
        }
        guard let body = try await Responses.body(of: request, limit: Responses.maximumBody) else {
            return Responses.error(.contentTooLarge, Responses.tooLarge(request))
        }
        guard let json = try? JSONValue(parsing: body) else {
            return rpc(.badRequest, RPCReply.error(.null, .parseError, "the body is not JSON"))
        }
        if json.array != nil {
            return rpc(
                .badRequest,
                RPCReply.error(.null, .invalidRequest, "send one message per request; batches are not taken since protocol revision 2025-06-18"))
        }
        let message = RPCMessage(json)
        var headers = HTTPFields()
        if case .request(let id, "initialize", let params) = message {
            let version = MCPServer.negotiate(params["protocolVersion"]?.string)
            headers[Self.sessionHeader] = await sessions.open(version: version)
            let reply = await server.answer(message, api: RouterAPI(responder: api, context: context, key: key))
            return rpc(.ok, reply ?? RPCReply.error(id, .internalError, "no answer"), headers: headers, stream: !asJSON)
        }
        guard let id = request.headers[Self.sessionHeader] else {
            return Responses.error(.badRequest, "give the session's Mcp-Session-Id (initialize opens one)")
        }
        guard let version = await sessions.use(id) else {
            return Responses.error(.notFound, "no open MCP session \(id): it ended or was idle too long; initialize again")
        }
        if let asked = request.headers[Self.versionHeader], asked != version, !MCPServer.protocolVersions.contains(asked) {
            return Responses.error(.badRequest, "MCP-Protocol-Version \(asked) is not spoken here; this session speaks \(version)")
        }
        let api = RouterAPI(responder: api, context: context, key: key)
        let book = SessionSubscriptions(sessions: sessions, id: id)
        switch message {
        case .notification, .response:
            return Response(status: .accepted)
        case .invalid:
            return rpc(.badRequest, await server.answer(message, api: api) ?? [:])
        case .request:
            return rpc(.ok, await server.answer(message, api: api, session: book) ?? [:], stream: !asJSON)
        }
    }

    /// The session's event stream: `notifications/resources/updated` for each subscribed resource
    /// when a panel comes to rest, a comment every 10 s (proxies keep the stream, and a stream
    /// whose client has gone fails to write and ends); it ends when the session does.
    private func stream(_ request: Request) async -> Response {
        guard let live else {
            return Responses.error(.methodNotAllowed, "flapd has no event stream here; POST messages to /mcp", headers: [.allow: "POST, DELETE"])
        }
        guard let id = request.headers[Self.sessionHeader] else {
            return Responses.error(.badRequest, "give the session's Mcp-Session-Id (initialize opens one)")
        }
        guard await sessions.use(id) != nil else {
            return Responses.error(.notFound, "no open MCP session \(id): it ended or was idle too long; initialize again")
        }
        let events = await live.watch()
        let sessions = self.sessions
        return Response(
            status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"],
            body: ResponseBody { writer in
                try await withGracefulShutdownHandler {
                    for await event in events {
                        // Each event also marks the session used: a client listening is not idle.
                        guard await sessions.use(id) != nil else { break }
                        if event.hasPrefix(":") {
                            try await writer.write(ByteBuffer(string: ": keepalive\n\n"))
                        } else if event.hasPrefix("event: board") {
                            for uri in await sessions.subscriptions(id).sorted() {
                                let note: JSONValue = ["jsonrpc": "2.0", "method": "notifications/resources/updated", "params": ["uri": .string(uri)]]
                                try await writer.write(ByteBuffer(string: "event: message\ndata: \(note.text)\n\n"))
                            }
                        }
                    }
                } onGracefulShutdown: {
                    live.finishAll()
                }
                try await writer.finish(nil)
            })
    }

    /// A JSON-RPC answer as JSON, or as the one `message` event of a stream that then ends.
    private func rpc(_ status: HTTPResponse.Status, _ reply: JSONValue, headers: HTTPFields = [:], stream: Bool = false) -> Response {
        var fields = headers
        fields[.contentType] = stream ? "text/event-stream" : "application/json"
        // JSON text has no raw line breaks, so it is one `data:` line.
        let body = stream ? "event: message\ndata: \(reply.text)\n\n" : reply.text
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(string: body)))
    }
}

import FlapCore
import FlapEndpoints
import FlapMCP
import FlapMembers
import FlapMessaging
import FlapMetrics
import FlapSetup
import FlapStorage
import FlapTime
import FoundationEssentials
import HTTPTypes
import Hummingbird
import Logging

/// The native API under `/v1` (bearer key), with `/healthz`, `/metrics`, the description and
/// `/mcp` beside it: its route groups (``APIParts/groups(started:)``, one per resource, each in
/// its own file under Routes/) behind the keys, and the state its ports share.
public struct NativeAPI: Sendable {
    /// What its routes use.
    public let parts: APIParts
    /// The owner's key.
    public let apiKey: String
    /// The names a request to `/mcp` may give as its Host.
    public let mcpHosts: MCPHosts
    private let groups: [any RouteGroup]
    /// Assistants connected to `/mcp`.
    public let mcpSessions = MCPSessions(clock: ContinuousClock())
    /// The connections of the ports this API is served on, shared by role: give the same to
    /// their ``ConnectionLimits/server(_:shares:)``.
    public let connections = ConnectionShares()

    /// The API over `parts`, the owner holding `apiKey`, `/mcp` answering the hosts `mcpHosts` allows.
    public init(_ parts: APIParts, apiKey: String, mcpHosts: MCPHosts = MCPHosts(listen: "127.0.0.1", machineName: nil, allowed: [])) {
        self.parts = parts
        self.apiKey = apiKey
        self.mcpHosts = mcpHosts
        groups = parts.groups(started: .now, apiKey: apiKey, shares: connections)
    }

    /// Its routes.
    public func router() -> Router<APIRequestContext> {
        router(declaring: DeclaredRoutes())
    }

    /// The router, each `/v1` route declared in `declared` with who may call it.
    func router(declaring declared: DeclaredRoutes) -> Router<APIRequestContext> {
        let router = Router(context: APIRequestContext.self)
        router.add(middleware: ResponseCompression())
        if let claim = parts.setup {
            router.add(middleware: UnclaimedBoardGate(claim: claim, keys: [apiKey] + (parts.viewerKey.map { [$0] } ?? [])))
        }
        addRoutes(to: router, declaring: declared)
        // The MCP server's tools go through the API's own routes (a router of their own, without /mcp).
        let api = Router(context: APIRequestContext.self)
        addRoutes(to: api, declaring: DeclaredRoutes())
        MCPEndpoint(
            server: MCPServer(version: parts.version, subscriptions: parts.live != nil), key: apiKey, hosts: mcpHosts, sessions: mcpSessions,
            api: api.buildResponder(), live: parts.live
        ).add(to: router)
        router.add(middleware: MethodNotAllowed(routes: router.routes))
        return router
    }

    private func addRoutes(to router: Router<APIRequestContext>, declaring declared: DeclaredRoutes) {
        let (metrics, access) = (parts.metrics, parts.access)
        router.add(middleware: FailureAnswers(answer: { Responses.error($0, $1) }, logger: Logger(label: "flapd.http")))
        router.on(.health) { _, _ in Answer(["status": "ok"]) }
        // The description of this API (OpenAPI 3.1), kept in Sources/FlapHTTP/OpenAPI and held
        // against this router by a test; public, as tools read it before they have a key.
        router.on(.openAPIDescription) { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: PackageResources.openapi_json)))
        }
        router.on(.metrics) { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: metrics.exposition())))
        }
        let setup = parts.setup
        // Once the board has had an owner the key claims nothing: no hop to the claim per request.
        let ownerKeyUsed: (@Sendable () async -> Void)? = setup.map { claim in
            { @Sendable in if !claim.hasHadOwner { try? await claim.owned() } }
        }
        let v1 = router.group(RouterPath(Endpoint.versionPrefix)).add(
            middleware: Authentication(
                key: apiKey, viewerKey: parts.viewerKey, access: access, shares: connections, ownerKeyUsed: ownerKeyUsed))
        for group in groups { group.add(to: AccessRoutes(v1: v1, declared: declared, shares: connections)) }
    }
}

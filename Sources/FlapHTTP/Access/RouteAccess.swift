import FlapEndpoints
import HTTPTypes
import Hummingbird
import Synchronization

/// Who may call a route, declared by its group where it adds the route (``AccessRoutes``). The
/// owner may call every route that needs a caller.
struct RouteAccess: OptionSet, Sendable, Hashable {
    let rawValue: Int

    /// Members, as their own sender (the handlers hold them to it).
    static let members = RouteAccess(rawValue: 1 << 0)
    /// The read-only viewer key.
    static let viewer = RouteAccess(rawValue: 1 << 1)
    /// A webhook source's own key (the push route: the key is checked against the source it names).
    static let webhook = RouteAccess(rawValue: 1 << 2)
    /// No credentials at all (signing in).
    static let anyone = RouteAccess(rawValue: 1 << 3)

    /// The owner only.
    static let owner: RouteAccess = []
    /// The owner and members.
    static let household: RouteAccess = [.members]
    /// The owner, members and the viewer key: reading the board.
    static let onlookers: RouteAccess = [.members, .viewer]

    /// Its name in the OpenAPI description's `x-flapd-access`.
    var name: String {
        if contains(.anyone) { return "anyone" }
        switch self {
        case .owner: return "owner"
        case .household: return "household"
        case .onlookers: return "onlookers"
        case [.members, .webhook]: return "household-and-webhooks"
        default: return "\(rawValue)"
        }
    }

    /// Whether `caller` (nil: no credentials) may call a route with this access.
    func admits(_ caller: Caller?) -> Bool {
        switch caller {
        case nil: contains(.anyone)
        case .owner: true
        case .member: contains(.members) || contains(.anyone)
        case .viewer: contains(.viewer) || contains(.anyone)
        case .webhook: contains(.webhook)
        }
    }

    /// Who it admits, in words, for docs/api.md's table.
    var callers: String {
        if contains(.anyone) { return "anyone" }
        switch self {
        case .owner: return "the owner"
        case .household: return "the owner and members"
        case .onlookers: return "the owner, members and the viewer key"
        case [.members, .webhook]: return "the owner, members and the source's own webhook key"
        default: return name
        }
    }

    /// What a member is told of a route that is the owner's: the routes members may call, as
    /// the routes declare them.
    static func memberRefusal(_ routes: [DeclaredRoute]) -> String {
        "a member may call " + routes.filter { $0.access.contains(.members) }.map(\.spelled).joined(separator: ", ")
            + ", each as their own sender and for their own messages; the rest is the owner's (the API key, or the owner's session)"
    }

    /// What the viewer key is told of a route that is not the board's: the routes it may call.
    static func viewerRefusal(_ routes: [DeclaredRoute]) -> String {
        "the viewer key reads the board (" + routes.filter { $0.access.contains(.viewer) }.map(\.spelled).joined(separator: ", ")
            + ") and nothing else; use the API key"
    }

    /// The answer to a caller this access does not admit; `routes`: every route, as declared.
    func refusal(for caller: Caller?, _ context: APIRequestContext, routes: [DeclaredRoute]) -> Response {
        switch caller {
        case nil:
            context.signInNeeded
                ?? Responses.error(
                    .unauthorized, "this API needs Authorization: Bearer <key> or a signed-in session (the key file's path is in flapd's log)",
                    headers: [.wwwAuthenticate: "Bearer"])
        case .viewer: Responses.error(.forbidden, Self.viewerRefusal(routes))
        case .webhook: Responses.error(.forbidden, "a webhook source's key pushes to that source and nothing else")
        case .member, .owner: Responses.error(.forbidden, Self.memberRefusal(routes))
        }
    }
}

/// One route as its group declared it: an endpoint of the table and who may call it.
struct DeclaredRoute: Sendable, Hashable {
    var endpoint: Endpoint
    var access: RouteAccess

    /// `GET /v1/messages/{id}`: as docs/api.md and the OpenAPI description spell it.
    var spelled: String { endpoint.description }
}

/// Every route declared so far, with its access: what the tests hold against the router, the
/// callers and the OpenAPI description.
final class DeclaredRoutes: Sendable {
    private let routes = Mutex<[DeclaredRoute]>([])

    func add(_ route: DeclaredRoute) { routes.withLock { $0.append(route) } }
    var all: [DeclaredRoute] { routes.withLock { $0 } }

    /// docs/api.md's table of who may call what, one row a route, in the order they were declared.
    var accessTable: String {
        (["| request | who may call it |", "|---|---|"] + all.map { "| `\($0.spelled)` | \($0.access.callers) |" }).joined(separator: "\n")
    }
}

/// The `/v1` group as a route group adds to it: each route with who may call it, checked before
/// its handler runs.
struct AccessRoutes {
    let v1: RouterGroup<APIRequestContext>
    let declared: DeclaredRoutes
    /// The ports' connections, told that a caller found here (a webhook's key) is not the household.
    var shares: ConnectionShares?

    /// `otherKey`: for a route that takes a key other than the household's and the viewer's,
    /// who that key makes the caller here (a webhook source's own key, on its push route); nil
    /// when it is nobody's. Every other route answers such a key 401.
    @discardableResult
    func on(
        _ endpoint: Endpoint, _ access: RouteAccess,
        otherKey: (@Sendable (String, APIRequestContext) -> Caller?)? = nil,
        use handler: @escaping @Sendable (Request, APIRequestContext) async throws -> some ResponseGenerator
    ) -> Self {
        declared.add(DeclaredRoute(endpoint: endpoint, access: access))
        v1.on(endpoint.routerPath(under: Endpoint.versionPrefix + "/"), method: endpoint.method) { [shares, declared] request, context -> Response in
            var context = context
            if context.caller == nil, let key = context.otherKey {
                guard let caller = otherKey?(key, context) else {
                    return Responses.error(.unauthorized, "the API key is wrong", headers: [.wwwAuthenticate: "Bearer"])
                }
                if let refusal = shares?.admit(context.connection, household: false) { return refusal }
                context.caller = caller
            }
            guard access.admits(context.caller) else { return access.refusal(for: context.caller, context, routes: declared.all) }
            do { return try await handler(request, context).response(from: request, context: context) } catch let refusal as APIError {
                return refusal.response
            }
        }
        return self
    }
}

extension Endpoint {
    /// Its path as Hummingbird's router reads it, below `prefix` (the group's): `messages/:id`.
    func routerPath(under prefix: String = "/") -> RouterPath {
        let below = path.hasPrefix(prefix) ? path.dropFirst(prefix.count) : path.dropFirst()
        return RouterPath(below.split(separator: "/").map { $0.first == "{" ? ":" + $0.dropFirst().dropLast() : String($0) }.joined(separator: "/"))
    }
}

extension Router<APIRequestContext> {
    /// An endpoint of the table served outside `/v1`'s keys (health, metrics, the description, MCP).
    @discardableResult
    func on(
        _ endpoint: Endpoint, use handler: @escaping @Sendable (Request, APIRequestContext) async throws -> some ResponseGenerator
    ) -> Self {
        on(endpoint.routerPath(), method: endpoint.method, use: handler)
    }
}

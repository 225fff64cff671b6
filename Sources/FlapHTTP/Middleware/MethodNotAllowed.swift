import HTTPTypes
import Hummingbird

/// A request for a path flapd serves, with a method it does not serve there, gets 405 and the
/// methods it does take (`Allow`), rather than a 404 that suggests the path is wrong. Added
/// last to the router, it sees only requests no route took.
struct MethodNotAllowed<Context: RequestContext>: RouterMiddleware {
    /// Each served path as its segments (a capture, `{name}` or `:name`, matches any one), with its methods.
    let paths: [(segments: [Substring], methods: [String])]

    init(routes: [Router<Context>.RouteDescription]) {
        var byPath: [String: Set<String>] = [:]
        for route in routes { byPath[route.path.description, default: []].insert(route.method.rawValue) }
        paths = byPath.map { path, methods in (path.split(separator: "/"), methods.sorted()) }
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let segments = request.uri.path.split(separator: "/")
        let allowed = paths.filter { Self.matches($0.segments, segments) }.flatMap(\.methods)
        guard !allowed.isEmpty else { return try await next(request, context) }
        let list = Set(allowed).sorted().joined(separator: ", ")
        var headers = HTTPFields()
        headers[.allow] = list
        return Responses.error(
            .methodNotAllowed, "\(request.method.rawValue) is not served at \(request.uri.path); it takes \(list)", headers: headers)
    }

    static func matches(_ pattern: [Substring], _ path: [Substring]) -> Bool {
        pattern.count == path.count && zip(pattern, path).allSatisfy { $0.hasPrefix(":") || $0.hasPrefix("{") || $0 == $1 }
    }
}

import FlapSetup
import HTTPTypes
import Hummingbird

/// Until a board has had an owner it listens on the home network with nothing to protect it but
/// the code on its face, so it answers only what setting it up needs: the page and its files,
/// `/v1/setup`, signing in, the authority's download (`/install`, `/ca.crt`) and `/healthz`.
/// A request with the API key or the viewer key goes through, as it would on a claimed board.
/// Everything else is refused, before any route reads the request: the board's messages, its
/// picture, `/metrics` and the API's description wait for its owner.
struct UnclaimedBoardGate<Context: RequestContext>: RouterMiddleware {
    let claim: any ClaimAccess
    let keys: [String]

    /// Paths served to anyone before the board is claimed, exactly.
    static var openPaths: Set<String> { ["/", "/healthz", "/install", "/ca.crt", "/favicon.ico", "/sw.js", "/manifest.webmanifest"] }
    /// Paths served to anyone before the board is claimed, with all below them: the page's own
    /// files (they hold no secret), claiming and signing in.
    static var openPrefixes: [String] { ["/web/", "/v1/setup", "/v1/session"] }

    static func isOpen(_ path: String) -> Bool {
        openPaths.contains(path) || openPrefixes.contains { path.hasPrefix($0) }
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard !claim.hasHadOwner, !Self.isOpen(request.uri.path), !carriesKey(request) else { return try await next(request, context) }
        let path = request.uri.path
        if request.method == .get, !["/v1/", "/mcp", "/metrics"].contains(where: { path.hasPrefix($0) }) {
            // A page (the TV's view, a widget): the setup page is where this board starts.
            return Response(status: .seeOther, headers: [.location: "/"])
        }
        return Responses.error(
            .forbidden,
            "this board is not set up yet: open its page (/) on a phone and type the code it shows (sudo flapctl setup-code prints it), or use the API key"
        )
    }

    private func carriesKey(_ request: Request) -> Bool {
        guard let header = request.headers[.authorization], let given = Authentication.secret(in: header) else { return false }
        return keys.contains { secretsMatch(given, $0) }
    }
}

import FlapEndpoints
import FlapSetup
import HTTPTypes
import Hummingbird

/// Until a board has had an owner it listens on the home network with nothing to protect it but
/// the code on its face, so it answers only what setting it up needs: the page and its files,
/// `/v1/setup`, signing in, the authority's download (`/install`, `/ca.crt`) and `/healthz`.
/// A request with the API key or the viewer key goes through, as it would on a claimed board.
/// Everything else is refused, before any route reads the request: the board's messages, its
/// picture, `/metrics` and the API's description wait for its owner.
struct UnclaimedBoardGate: RouterMiddleware {
    typealias Context = APIRequestContext
    let claim: any ClaimAccess
    let keys: [String]

    /// Paths served to anyone before the board is claimed, exactly: the API's own for claiming
    /// and signing in, as the endpoint table names them, and the page's files at the root.
    static let openPaths: Set<String> = Set(
        [Endpoint.health, .setupState, .claimBoard, .signIn, .session, .signOut].map(\.path)
            + ["/", "/install", "/ca.crt", "/favicon.ico", "/sw.js", "/manifest.webmanifest"])
    /// The page's own files (they hold no secret), all below it.
    static let pageFiles = "/web/"
    /// What a program asks for, answered 403 rather than sent to the setup page.
    static let programPaths = [Endpoint.versionPrefix + "/", Endpoint.mcpMessage.path, Endpoint.metrics.path]

    static func isOpen(_ path: String) -> Bool { openPaths.contains(path) || path.hasPrefix(pageFiles) }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard !claim.hasHadOwner, !Self.isOpen(request.uri.path), !carriesKey(request) else { return try await next(request, context) }
        let path = request.uri.path
        if request.method == .get, !Self.programPaths.contains(where: { path.hasPrefix($0) }) {
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

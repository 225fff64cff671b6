import FlapCore
import FlapMembers
import FoundationEssentials
import HTTPTypes
import Hummingbird
import Logging

#if canImport(Glibc)
    import Glibc
#endif

/// The session cookie: after `POST /v1/session` with the API key, a pairing link or an
/// invitation, a random token in an HttpOnly, SameSite=Strict cookie stands for the owner or the
/// member it was made for, while it is used (``AccessStore``).
public enum SessionCookie {
    /// The session cookie's name.
    public static let cookieName = "flapd_session"

    /// The session token in a request's cookies.
    static func id(in request: Request) -> String? {
        guard let header = request.headers[.cookie] else { return nil }
        for part in header.split(separator: ";") {
            let pair = part.trimmed
            if pair.hasPrefix(cookieName + "=") { return String(pair.dropFirst(cookieName.count + 1)) }
        }
        return nil
    }

    /// The cookie that opens a session (or, with no id, ends it).
    /// Asked for over HTTPS, it is `Secure`: the browser never sends it over plain HTTP.
    static func cookie(_ id: String?, expires: Date?, for request: Request) -> String {
        let secure = request.head.scheme == "https" ? "; Secure" : ""
        guard let id, let expires else { return "\(cookieName)=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0\(secure)" }
        return "\(cookieName)=\(id); Path=/; HttpOnly; SameSite=Strict; Max-Age=\(Int(expires.timeIntervalSinceNow.rounded()))\(secure)"
    }
}

/// Says who a request is from (``APIRequestContext/caller``): the API key (`Authorization:
/// Bearer`, or as HTTP Basic's password), a member's key, the viewer key, or a session cookie.
/// Any other key is left for the route: one that takes a webhook source's own key reads it, and
/// every other answers it 401. Who may call which route is the route's own declaration
/// (``AccessRoutes``); a request with no credentials goes on with no caller, which only a route
/// open to anyone answers. A request that changes something with a cookie must come from the
/// page itself: its `Origin` (or, where a browser sends none, `Sec-Fetch-Site: same-origin`)
/// must be this server's, so another site cannot make a signed-in browser act.
struct Authentication: RouterMiddleware {
    typealias Context = APIRequestContext
    let key: String
    let viewerKey: String?
    let access: AccessStore
    /// The ports' connections, shared by role: told whose each request is.
    var shares: ConnectionShares?
    /// Told when the API key is used: whoever holds it owns the board, which then shows no setup code.
    var ownerKeyUsed: (@Sendable () async -> Void)?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        if let header = request.headers[.authorization] {
            let given = Self.secret(in: header) ?? ""
            if secretsMatch(given, key) {
                await ownerKeyUsed?()
                return try await admit(request, as: .owner, context, next)
            }
            if let member = await access.member(withKey: given) { return try await admit(request, as: Caller(.member(member)), context, next) }
            guard let viewerKey, secretsMatch(given, viewerKey) else {
                // Only a route that takes another key (a webhook source's own) reads it; every
                // other route answers that it is wrong (``AccessRoutes``).
                context.otherKey = given
                return try await next(request, context)
            }
            if let refusal = shares?.admit(context.connection, household: false) { return refusal }
            context.caller = .viewer
            return try await next(request, context)
        }
        guard let id = SessionCookie.id(in: request), let (principal, _) = await access.session(id) else {
            // A phone whose member the owner removed is told so, not asked for a key it never had.
            if let id = SessionCookie.id(in: request), let removal = await access.removal(endingSession: id) {
                context.signInNeeded = Responses.json(.unauthorized, SignedOut(removal), headers: [.wwwAuthenticate: "Bearer"])
            }
            return try await next(request, context)
        }
        if ![.get, .head, .options].contains(request.method), !Self.sameOrigin(request) {
            return Responses.error(.forbidden, "a request from another site is refused: send it from flapd's own page")
        }
        return try await admit(request, as: Caller(principal), context, next)
    }

    private func admit(
        _ request: Request, as caller: Caller, _ context: Context,
        _ next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        if let refusal = shares?.admit(context.connection, household: true) { return refusal }
        var context = context
        context.caller = caller
        return try await next(request, context)
    }

    /// The key in `Bearer KEY`, or the password of `Basic base64(user:password)` (dashboards
    /// that can only send Basic put the key there, under any user name). The scheme's name is
    /// case-insensitive (RFC 9110: `bearer` is `Bearer`).
    static func secret(in header: String) -> String? {
        if let token = bearer(in: header) { return token }
        guard let credentials = credentials(in: header, scheme: "basic"), let decoded = Data(base64Encoded: credentials),
            let pair = String(data: decoded, encoding: .utf8), let colon = pair.firstIndex(of: ":")
        else { return nil }
        return String(pair[pair.index(after: colon)...])
    }

    /// The token of an `Authorization: Bearer TOKEN` header, whatever the scheme's case.
    static func bearer(in header: String) -> String? { credentials(in: header, scheme: "bearer") }

    private static func credentials(in header: String, scheme: String) -> String? {
        guard let space = header.firstIndex(of: " "), header[..<space].lowercased() == scheme else { return nil }
        return String(header[header.index(after: space)...]).trimmed
    }

    /// Whether the request says it comes from this server's own pages.
    static func sameOrigin(_ request: Request) -> Bool {
        if let origin = request.headers[.origin] {
            guard let host = request.head.authority else { return false }
            return origin == "http://\(host)" || origin == "https://\(host)"
        }
        return request.headers[.secFetchSite] == "same-origin"
    }
}

extension Dictionary where Key == String {
    /// The entry whose key equals `key`, found through the dictionary's hash.
    func first(matching key: String) -> (String, Value)? {
        guard let index = index(forKey: key) else { return nil }
        return (self[index].key, self[index].value)
    }
}

import FoundationEssentials
import Hummingbird

/// `/v1/session`: a browser signs in with the API key (answered with the session's cookie),
/// asks whether it is signed in, and signs out. Outside the key's check: signing in is how a
/// browser gets past it.
struct SessionAPI {
    let apiKey: String
    let sessions: Sessions

    func add(to router: Router<BasicRequestContext>) {
        router.post("v1/session") { request, _ in try await signIn(request) }
        router.delete("v1/session") { request, _ in
            // Signing out changes something too: another site must not sign a browser out.
            if Sessions.id(in: request) != nil, !Authentication.sameOrigin(request) {
                return Responses.error(.forbidden, "a request from another site is refused: send it from flapd's own page")
            }
            if let id = Sessions.id(in: request) { await sessions.close(id) }
            return Response(status: .noContent, headers: [.setCookie: Sessions.cookie(nil, expires: nil, for: request)])
        }
        router.get("v1/session") { request, _ in
            // 200 either way: a page asking whether it is signed in is not an error.
            guard let id = Sessions.id(in: request), let expires = await sessions.expires(id) else {
                return Responses.json(.ok, SessionState(signedIn: false, expiresAt: nil))
            }
            return Responses.json(.ok, SessionState(signedIn: true, expiresAt: expires))
        }
    }

    /// `{"key": "…"}` opens a session; the key is compared in constant time and never logged.
    private func signIn(_ request: Request) async throws -> Response {
        guard let body = try await Responses.body(of: request, limit: 4096),
              let given = (try? JSONDecoder().decode(SignIn.self, from: Data(body)))?.key else {
            return Responses.error(.badRequest, "send {\"key\": \"…\"}: the API key (its file's path is in flapd's log)")
        }
        guard secretsMatch(given, apiKey) else { return Responses.error(.unauthorized, "the API key is wrong") }
        let (id, expires) = await sessions.open()
        return Responses.json(.ok, SignedIn(expiresAt: expires), headers: [.setCookie: Sessions.cookie(id, expires: expires, for: request)])
    }

    /// `GET /v1/session`'s answer.
    struct SessionState: Encodable {
        var signedIn: Bool
        var expiresAt: Date?
    }
}

/// The sign-in's answer: when the session ends.
struct SignedIn: Encodable {
    var expiresAt: Date
}

/// The sign-in request's body.
struct SignIn: Decodable {
    var key: String
}

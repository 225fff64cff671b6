import FlapEndpoints
import FlapMembers
import FlapSetup
import FoundationEssentials
import Hummingbird

/// `/v1/session`: a browser signs in with the API key, a pairing link or a member's invitation
/// (answered with the session's cookie), asks whether and as whom it is signed in, and signs out.
/// Open to anyone: signing in is how a browser gets past the key's check.
struct SessionAPI: RouteGroup {
    let apiKey: String
    let access: AccessStore
    /// Told when the owner signs in, so a board claimed by its key or a pairing link shows no setup code.
    let setup: (any ClaimAccess)?

    func add(to v1: AccessRoutes) {
        v1.on(.signIn, .anyone) { request, context in try await signIn(request, from: context.peer) }
        v1.on(.signOut, .anyone) { request, _ in
            // Signing out changes something too: another site must not sign a browser out.
            if SessionCookie.id(in: request) != nil, !Authentication.sameOrigin(request) {
                throw APIError(.forbidden, "a request from another site is refused: send it from flapd's own page")
            }
            if let id = SessionCookie.id(in: request) { await access.closeSession(id) }
            return Response(status: .noContent, headers: [.setCookie: SessionCookie.cookie(nil, expires: nil, for: request)])
        }
        v1.on(.session, .anyone) { request, _ in
            // 200 either way: a page asking whether it is signed in is not an error.
            guard let id = SessionCookie.id(in: request), let (principal, expires) = await access.session(id) else {
                var state = SessionState(signedIn: false)
                if let id = SessionCookie.id(in: request), let removal = await access.removal(endingSession: id) { state.ended = SignedOut(removal) }
                return Answer(state)
            }
            // The cookie's end moves on with the session's: used, it stays.
            return Answer(
                SessionState(principal, expires: expires),
                headers: [.setCookie: SessionCookie.cookie(id, expires: expires, for: request)])
        }
    }

    /// `{"key": "…"}` (compared in constant time, never logged) or `{"invitation": "…"}` (a pairing
    /// or invitation link's token, used once) opens a session.
    private func signIn(_ request: Request, from peer: String) async throws -> Answer<SessionAPI.SessionState> {
        guard let body = try await Responses.body(of: request, limit: 4096),
            let given = try? JSONDecoder().decode(SignIn.self, from: Data(body)), (given.key == nil) != (given.invitation == nil)
        else {
            throw APIError(
                .badRequest, "send {\"key\": \"…\"} (the API key; its file's path is in flapd's log) or {\"invitation\": \"…\"} (from a link)")
        }
        if let key = given.key {
            guard secretsMatch(key, apiKey) else { throw APIError(.unauthorized, "the API key is wrong") }
            try await setup?.owned()
            let (id, expires) = await access.openSession(for: .owner)
            return Answer(SessionState(.owner, expires: expires), headers: [.setCookie: SessionCookie.cookie(id, expires: expires, for: request)])
        }
        switch await access.redeem(given.invitation ?? "", from: peer) {
        case .signedIn(let principal, let id, let expires):
            if case .owner = principal { try await setup?.owned() }
            return Answer(SessionState(principal, expires: expires), headers: [.setCookie: SessionCookie.cookie(id, expires: expires, for: request)])
        case .refused:
            throw APIError(.unauthorized, "this link has been used, has expired or was revoked: ask the board's owner for a new one")
        case .tooManyGuesses(let wait):
            throw APIError(
                .tooManyRequests, "too many wrong links from this address lately; try again in \(wait) s", headers: [.retryAfter: "\(wait)"])
        }
    }

    /// `GET /v1/session`'s answer, and a sign-in's: as whom, until when.
    struct SessionState: Encodable {
        var signedIn: Bool
        var expiresAt: Date?
        /// `owner` or `member`.
        var role: String?
        /// The member's name and sender, for a member.
        var member: MemberView?
        /// Signed out because the owner removed this phone's member: who, when, and what to do.
        var ended: SignedOut?

        init(signedIn: Bool) { self.signedIn = signedIn }

        init(_ principal: Principal, expires: Date) {
            signedIn = true
            expiresAt = expires
            switch principal {
            case .owner: role = "owner"
            case .member(let member):
                role = "member"
                self.member = MemberView(member)
            }
        }
    }
}

/// The sign-in request's body: one of the two.
struct SignIn: Decodable {
    var key: String?
    var invitation: String?
}

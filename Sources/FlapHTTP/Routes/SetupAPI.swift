import FlapEndpoints
import FlapMembers
import FlapSetup
import FoundationEssentials
import Hummingbird

/// `/v1/setup`: a board no one owns yet is claimed from a phone with the code it shows. The code
/// is never in an answer: reading it off the board is the proof of being in front of it. The
/// owner can ask for a new code, to hand the board over or to claim it again from a new phone.
struct SetupAPI: RouteGroup {
    let setup: (any ClaimAccess)?
    let access: AccessStore

    /// `GET /v1/setup`'s answer: whether the board has an owner, and how long its code is.
    struct SetupState: Encodable, Sendable {
        var claimed: Bool
        var codeDigits = SetupCode.length
    }

    /// `POST /v1/setup/claim`'s body: the code on the board, and whether the owner's other
    /// phones are signed out (a board handed over).
    struct Claim: Decodable {
        var code: String
        var endOtherOwnerSessions: Bool?
    }

    func add(to v1: AccessRoutes) {
        v1.on(.setupState, .anyone) { _, _ in Answer(SetupState(claimed: await setup?.isClaimed ?? true)) }
        v1.on(.claimBoard, .anyone) { request, context in try await claim(request, from: context.peer) }
        v1.on(.newSetupCode, .owner) { _, _ in
            guard let setup else { throw APIError(.notFound, "this flapd is not set up from a phone") }
            _ = try await setup.newCode()
            return Answer(
                status: .accepted,
                [
                    "shown":
                        "a new code is on the board for \(SetupCode.lifetime.components.seconds / 60) minutes: whoever types it becomes the board's owner"
                ])
        }
    }

    private func claim(_ request: Request, from peer: String) async throws -> Answer<SessionAPI.SessionState> {
        guard let setup, !(await setup.isClaimed) else {
            throw APIError(
                .forbidden,
                "this board has an owner and shows no code: ask them to invite you, or to show a new code (flapctl setup-code --new)")
        }
        guard let body = try await Responses.body(of: request, limit: 4096), let given = try? JSONDecoder().decode(Claim.self, from: Data(body))
        else {
            throw APIError(.badRequest, "send {\"code\": \"1234 5678\"}: the eight digits the board shows")
        }
        switch try await setup.claim(given.code, from: peer) {
        case .claimed:
            let (id, expires) = await access.openSession(for: .owner)
            if given.endOtherOwnerSessions == true { await access.closeOwnerSessions(except: id) }
            return Answer(
                SessionAPI.SessionState(.owner, expires: expires), headers: [.setCookie: SessionCookie.cookie(id, expires: expires, for: request)])
        case .wrong(let left) where left > 0:
            throw APIError(.unauthorized, "that is not the code on the board; \(left) more tries before it shows a new one")
        case .wrong:
            throw APIError(.unauthorized, "that is not the code on the board, and it now shows a new one: type that")
        case .malformed:
            throw APIError(.badRequest, "the code is the eight digits the board shows, such as 1234 5678")
        case .tooManyTries(let wait):
            throw APIError(
                .tooManyRequests, "too many wrong codes from this address lately; try again in \(wait) s", headers: [.retryAfter: "\(wait)"])
        case .alreadyClaimed:
            throw APIError(.forbidden, "this board has just been claimed")
        }
    }
}

import FlapCore
import FlapEndpoints
import FlapMembers
import FlapMessaging
import FlapPresence
import FoundationEssentials
import Hummingbird

/// `/v1/members` (the owner's): invite people, each with a sender of their own; list, revoke,
/// make a new link or a key for their scripts. `/v1/pairing`: a link that signs the owner's own
/// phone in. Links open `/join#TOKEN` on the HTTPS address, with the token in the fragment so it
/// never reaches a log; each comes with its QR code as SVG.
struct MembersAPI: RouteGroup {
    let access: AccessStore
    let links: InvitationLinks
    let intake: MessageIntake
    /// The live stream, whose member watchers are told at once that their access ended.
    let live: LiveBoards?
    /// The owner's name, for the member list (presence keeps it).
    let presence: PresenceBook?

    /// `GET /v1/members`: the members, and those removed lately (an undo is offered for them).
    struct Listing: Encodable, Sendable { var members: [MemberView]; var removed: [RemovalView] }

    func add(to v1: AccessRoutes) {
        v1.on(.members, .owner) { _, _ in
            return Answer(Listing(members: await access.members().map(MemberView.init), removed: await access.recentRemovals().map(RemovalView.init)))
        }
        v1.on(.addMember, .owner) { request, _ in try await invite(request) }
        v1.on(.removeMember, .owner) { request, context in try await remove(context.parameter("id"), request) }
        v1.on(.restoreMember, .owner) { _, context in
            let id = context.parameter("id")
            do throws(UndoRefusal) {
                return Answer(MemberView(try await access.undoRemoval(id)))
            } catch {
                if case UndoRefusal.unknown = error { throw APIError(.notFound, error.description) }
                throw APIError(.conflict, error.description)
            }
        }
        v1.on(.inviteMember, .owner) { request, context in
            let id = context.parameter("id")
            let host = try await chosenHost(request)
            guard let invitation = await access.newInvitation(for: id) else { throw APIError(.notFound, "no member \(id)") }
            return try link(invitation, for: request, host: host)
        }
        v1.on(.replaceMemberKey, .owner) { _, context in
            let id = context.parameter("id")
            guard let key = await access.newKey(for: id) else { throw APIError(.notFound, "no member \(id)") }
            return Answer(status: .created, ["key": key, "note": "shown once: flapd keeps only its digest"])
        }
        v1.on(.pair, .owner) { request, _ in
            let host = try await chosenHost(request)
            return try link(await access.pairing(), for: request, host: host)
        }
    }

    /// `{"host": "board.home"}`, or nothing: the name a link should use when the request chooses one.
    private func chosenHost(_ request: Request) async throws -> String? {
        struct Chosen: Decodable { var host: String? }
        guard let body = try await Responses.body(of: request, limit: 4096) else {
            throw APIError(.contentTooLarge, "the request is larger than 4 KiB: send {\"host\": \"board.home\"} or nothing")
        }
        if body.isEmpty { return nil }
        guard let chosen = try? JSONDecoder().decode(Chosen.self, from: Data(body)) else {
            throw APIError(
                .badRequest, "send {\"host\": \"board.home\"} (the name the link should use) or nothing",
                problems: [.init(field: "host", problem: "a string")])
        }
        if let host = chosen.host { try check(host: host, for: request) }
        return chosen.host
    }

    /// Checked before anything is made, so a refused name leaves no link behind.
    private func check(host: String, for request: Request) throws(APIError) {
        do {
            _ = try links.host(for: request, asking: host)
        } catch {
            throw APIError(.badRequest, error.description, problems: [.init(field: "host", problem: "not on the certificate")])
        }
    }

    private func link(_ invitation: Invitation, for request: Request, host: String?) throws -> Answer<InvitationView> {
        do {
            return Answer(status: .created, try links.view(invitation, for: request, host: host))
        } catch {
            throw APIError(.badRequest, error.description, problems: [.init(field: "host", problem: "not on the certificate")])
        }
    }

    /// `?message=keep` (the default) leaves their message on the board; `?message=clear` clears it.
    private func remove(_ id: String, _ request: Request) async throws -> Answer<RemovalView> {
        let choice = request.uri.queryParameters.get("message") ?? "keep"
        guard choice == "keep" || choice == "clear" else {
            throw APIError(
                .badRequest, "message must be keep (their message stays on the board) or clear, not \(choice)",
                problems: [.init(field: "message", problem: "keep or clear")])
        }
        guard let removal = await access.removeMember(id, messageCleared: choice == "clear") else { throw APIError(.notFound, "no member \(id)") }
        if choice == "clear" { _ = try await intake.inbox.clearSlot(removal.member.sender, now: intake.now()) }
        await live?.end(watchers: "member \(id)", with: SignedOut(removal).serverSentEvent)
        return Answer(RemovalView(removal))
    }

    /// A member added, with their first invitation.
    struct Invited: Encodable, Sendable { var member: MemberView; var invitation: InvitationView }

    private func invite(_ request: Request) async throws -> Answer<Invited> {
        struct NewMember: Decodable { var name: String; var sender: String?; var host: String? }
        guard let body = try await Responses.body(of: request, limit: 4096) else {
            throw APIError(
                .contentTooLarge, "the request is larger than 4 KiB; a member's name is at most 40 characters and a sender id 64",
                problems: [.init(field: "name", problem: "too long")])
        }
        guard let given = try? JSONDecoder().decode(NewMember.self, from: Data(body)) else {
            throw APIError(
                .badRequest,
                "send {\"name\": \"Mum\", \"sender\": \"mum\"} (sender: the id their messages carry; their name in lower case if left out)",
                problems: [.init(field: "name", problem: "required, a string")])
        }
        let sender = given.sender ?? MemberView.senderID(for: given.name)
        if let host = given.host { try check(host: host, for: request) }
        do {
            let ownerName = await presence?.ownerName
            let (member, invitation) = try await access.addMember(name: given.name, sender: sender, othersNames: ownerName.map { [$0] } ?? [])
            guard let view = try? links.view(invitation, for: request, host: given.host) else {
                throw APIError(.badRequest, "the certificate changed meanwhile; make a new link for \(member.name)")
            }
            return Answer(status: .created, Invited(member: MemberView(member), invitation: view))
        } catch let error as MemberProblem {
            throw APIError(error.isConflict ? .conflict : .badRequest, "\(error)", problems: [.init(field: error.field, problem: error.problem)])
        }
    }
}

/// A removed member as the owner's list shows them: what became of their message, and until when
/// the removal can be taken back.
struct RemovalView: Encodable {
    var id: String
    var name: String
    var sender: String
    var removedAt: Date
    var undoUntil: Date
    /// `kept` or `cleared`.
    var message: String

    init(_ removal: Removal) {
        id = removal.member.id
        name = removal.member.name
        sender = removal.member.sender
        removedAt = removal.at
        undoUntil = removal.undoUntil
        message = removal.messageCleared ? "cleared" : "kept"
    }
}

/// What a removed member's page is told: on its live stream at once, and in the 401 of its next request.
struct SignedOut: Encodable {
    var reason = "removed"
    var name: String
    var at: Date
    var error: String

    init(_ removal: Removal) {
        name = removal.member.name
        at = removal.at
        error = "The board's owner removed you (\(removal.member.name)): this phone is signed out. To use the board again, ask them for a new link."
    }

    var serverSentEvent: String {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        return "event: signed-out\ndata: \(String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self))\n\n"
    }
}

/// A member as the API shows them (never a secret).
struct MemberView: Encodable {
    var id: String
    var name: String
    var sender: String
    var createdAt: Date

    init(_ member: Member) {
        id = member.id
        name = member.name
        sender = member.sender
        createdAt = member.createdAt
    }

    /// A sender id from a name when none is given: lower case, spaces as dashes, what a sender id
    /// may not hold left out ("Grand Ma" → "grand-ma"); `member` for a name of nothing else.
    static func senderID(for name: String) -> String {
        let id = String(name.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: "-").filter { !"/+#".contains($0) }.prefix(64))
        return id.isEmpty ? "member" : id
    }
}

import FlapCore
import FlapMembers
import FoundationEssentials
import Hummingbird

/// `/v1/members` (the owner's): invite people, each with a sender of their own; list, revoke,
/// make a new link or a key for their scripts. `/v1/pairing`: a link that signs the owner's own
/// phone in. Links open `/join#TOKEN` on the HTTPS address, with the token in the fragment so it
/// never reaches a log; each comes with its QR code as SVG.
struct MembersAPI {
    let access: AccessStore
    let links: InvitationLinks

    func add(to v1: RouterGroup<BasicRequestContext>) {
        v1.get("members") { _, _ in Responses.json(.ok, ["members": await access.members().map(MemberView.init)]) }
        v1.post("members") { request, _ in try await invite(request) }
        v1.delete("members/:id") { _, context in
            let id = context.parameter("id")
            guard await access.removeMember(id) else { return Responses.error(.notFound, "no member \(id)") }
            return Response(status: .noContent)
        }
        v1.post("members/:id/invitation") { request, context in
            let id = context.parameter("id")
            guard let invitation = await access.newInvitation(for: id) else { return Responses.error(.notFound, "no member \(id)") }
            return Responses.json(.created, links.view(invitation, for: request))
        }
        v1.post("members/:id/keys") { _, context in
            let id = context.parameter("id")
            guard let key = await access.newKey(for: id) else { return Responses.error(.notFound, "no member \(id)") }
            return Responses.json(.created, ["key": key, "note": "shown once: flapd keeps only its digest"])
        }
        v1.post("pairing") { request, _ in Responses.json(.created, links.view(await access.pairing(), for: request)) }
    }

    private func invite(_ request: Request) async throws -> Response {
        struct NewMember: Decodable { var name: String; var sender: String? }
        guard let body = try await Responses.body(of: request, limit: 4096) else {
            return Responses.error(.contentTooLarge, "the request is larger than 4 KiB; a member's name is at most 40 characters and a sender id 64",
                                   problems: [.init(field: "name", problem: "too long")])
        }
        guard let given = try? JSONDecoder().decode(NewMember.self, from: Data(body)) else {
            return Responses.error(.badRequest, "send {\"name\": \"Mum\", \"sender\": \"mum\"} (sender: the id their messages carry; their name in lower case if left out)",
                                   problems: [.init(field: "name", problem: "required, a string")])
        }
        let sender = given.sender ?? MemberView.senderID(for: given.name)
        do {
            let (member, invitation) = try await access.addMember(name: given.name, sender: sender)
            struct Invited: Encodable { var member: MemberView; var invitation: InvitationView }
            return Responses.json(.created, Invited(member: MemberView(member), invitation: links.view(invitation, for: request)))
        } catch {
            return Responses.error(error.isConflict ? .conflict : .badRequest, "\(error)", problems: [.init(field: error.field, problem: error.problem)])
        }
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

/// A link as the API shows it: its URL (the token in its fragment), when it stops working, and
/// its QR code.
struct InvitationView: Encodable {
    var url: String
    var expiresAt: Date
    var qrCode: String?
}

/// Where links point: the HTTPS address by the name the owner's browser used, or, asked from this
/// machine (flapctl), by the machine's `.local` name, which phones on the network resolve.
public struct InvitationLinks: Sendable {
    public var machineName: String
    public var httpsPort: @Sendable () -> Int?
    public var qrCode: @Sendable (String) -> String?

    public init(machineName: String, httpsPort: @escaping @Sendable () -> Int?, qrCode: @escaping @Sendable (String) -> String?) {
        self.machineName = machineName
        self.httpsPort = httpsPort
        self.qrCode = qrCode
    }

    func base(for request: Request) -> String {
        let asked = request.head.authority.flatMap(HostHeader.host(of:))
        let loopback = asked == nil || asked == "localhost" || asked!.hasPrefix("127.") || asked == "[::1]"
        let short = machineName.split(separator: ".").first.map(String.init) ?? machineName
        let host = loopback ? short + ".local" : asked!
        return "https://\(host):\(httpsPort() ?? 8443)"
    }

    func view(_ invitation: Invitation, for request: Request) -> InvitationView {
        let url = base(for: request) + "/join#" + invitation.token
        return InvitationView(url: url, expiresAt: invitation.expiresAt, qrCode: qrCode(url))
    }
}

import FlapJSON
import FlapMembers
import FlapMessaging
import FlapMetrics
import HTTPTypes
import Hummingbird

/// `/v1/messages`: a message posted (checked, stored, answered with its receipt), and a message
/// sent for later cancelled before its time; `/v1/scheduled` lists those still waiting.
struct MessagesAPI: RouteGroup {
    let intake: MessageIntake
    let access: AccessStore
    let metrics: FlapMetrics
    let answers: IntakeAnswers

    func add(to v1: RouterGroup<BasicRequestContext>) {
        v1.post("messages") { request, _ in try await post(request) }
        v1.delete("messages/:id") { request, context in
            let id = context.parameter("id")
            if let member = MemberAccess.member(of: request), try await intake.inbox.receipt(id: id)?.sender != member.sender {
                return Responses.error(.forbidden, "a member cancels only their own messages (sender \(member.sender))")
            }
            switch try await intake.inbox.cancel(id, now: intake.now()) {
            case nil:
                return Responses.error(.notFound, "no message with id \(id)")
            case .cancelled:
                return Responses.json(.ok, ["id": id, "status": ReceiptStatus.cancelled.rawValue])
            case let status?:
                return Responses.error(.conflict, "only a message still waiting for its time can be cancelled; \(id) is \(status.rawValue)")
            }
        }
        v1.get("scheduled") { _, _ in
            Responses.json(.ok, ScheduledList(scheduled: try await intake.inbox.scheduled().map(ScheduledMessage.init)))
        }
    }

    private func post(_ request: Request) async throws -> Response {
        guard request.headers[.contentType]?.lowercased().hasPrefix("application/json") == true else {
            metrics.rejected(source: "native-api", reason: "unsupported_type")
            return Responses.error(.unsupportedMediaType, "send the message as JSON, with Content-Type: application/json")
        }
        guard let body = try await Responses.body(of: request, limit: Responses.maximumBody) else {
            metrics.rejected(source: "native-api", reason: "too_large")
            return Responses.error(.contentTooLarge, Responses.tooLarge(request))
        }
        var claim: IdempotencyClaim?
        if let key = request.headers[Self.idempotencyKey] {
            guard (1...255).contains(key.utf8.count), key.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) }) else {
                metrics.rejected(source: "native-api", reason: "invalid")
                return Responses.error(.badRequest, "Idempotency-Key must be 1 to 255 visible ASCII characters (a UUID, say)",
                                       problems: [.init(field: "Idempotency-Key", problem: "must be 1 to 255 visible ASCII characters")])
            }
            claim = IdempotencyClaim(client: Self.client(of: request), key: key, request: body)
        }
        var message = body
        if let member = MemberAccess.member(of: request) {
            if let named = Self.senderID(in: body), named != member.sender {
                metrics.rejected(source: "native-api", reason: "forbidden")
                return Responses.error(.forbidden, "sender.id: a member sends as their own sender (\(member.sender)), not as \(named); leave sender out",
                                       problems: [.init(field: "sender.id", problem: "must be \(member.sender) or left out")])
            }
            let name = await access.members().first { $0.id == member.id }?.name
            message = Self.signed(body, sender: member.sender, name: name)
        }
        return try await answers.answer(intake.submit(json: message, source: "native-api", claim: claim), source: "native-api")
    }

    /// The `sender.id` a body names, if it names one (the parser says what else is wrong with it).
    static func senderID(in body: [UInt8]) -> String? {
        guard case .object(let fields)? = try? JSONValue(parsing: body), case .object(let sender)? = fields["sender"],
              case .string(let id)? = sender["id"] else { return nil }
        return id
    }

    /// A member's message with their sender in it, named as the owner named them unless the
    /// message names them itself; a body that is not a JSON object is passed on for the parser
    /// to say what is wrong.
    static func signed(_ body: [UInt8], sender: String, name: String?) -> [UInt8] {
        guard case .object(var fields)? = try? JSONValue(parsing: body) else { return body }
        var given: [String: JSONValue] = [:]
        if case .object(let existing)? = fields["sender"] { given = existing }
        given["id"] = .string(sender)
        if given["name"] == nil, let name { given["name"] = .string(name) }
        fields["sender"] = .object(given)
        return Array(JSONValue.object(fields).text.utf8)
    }

    static let idempotencyKey = HTTPField.Name("Idempotency-Key")!

    /// Whose idempotency keys a request's key is among: the owner's, or one member's.
    static func client(of request: Request) -> String { MemberAccess.member(of: request)?.id ?? "owner" }
}

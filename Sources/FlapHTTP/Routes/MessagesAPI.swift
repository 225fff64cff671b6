import FlapEndpoints
import FlapJSON
import FlapMembers
import FlapMessaging
import HTTPTypes
import Hummingbird

/// `/v1/messages`: a message posted (checked, stored, answered with its receipt), and a message
/// sent for later cancelled before its time; `/v1/scheduled` lists those still waiting.
struct MessagesAPI: RouteGroup {
    let intake: MessageIntake
    let access: AccessStore

    func add(to v1: AccessRoutes) {
        v1.on(.sendMessage, .household) { request, context in try await post(request, context) }
        v1.on(.cancelMessage, .household) { request, context in
            var id = context.parameter("id")
            if let member = context.member {
                // Another sender's message is, to a member, no message at all.
                guard let own = try await intake.inbox.receipt(id: id, of: member.sender) else {
                    throw APIError(.notFound, "no message with id \(id)")
                }
                id = own.id
            }
            switch try await intake.inbox.cancel(id, now: intake.now()) {
            case nil:
                throw APIError(.notFound, "no message with id \(id)")
            case .cancelled:
                return Answer(["id": id, "status": ReceiptStatus.cancelled.rawValue])
            case let status?:
                throw APIError(.conflict, "only a message still waiting for its time can be cancelled; \(id) is \(status.rawValue)")
            }
        }
        v1.on(.scheduled, .owner) { _, _ in
            Answer(ScheduledList(scheduled: try await intake.inbox.scheduled().map(ScheduledMessage.init)))
        }
    }

    private func post(_ request: Request, _ context: APIRequestContext) async throws -> Answer<IntakeAnswers.Accepted> {
        guard request.headers[.contentType]?.lowercased().hasPrefix("application/json") == true else {
            intake.refuse(.unsupportedType, source: .nativeAPI)
            throw APIError(.unsupportedMediaType, "send the message as JSON, with Content-Type: application/json")
        }
        guard let body = try await Responses.body(of: request, limit: Responses.maximumBody) else {
            intake.refuse(.tooLarge, source: .nativeAPI)
            throw APIError(.contentTooLarge, Responses.tooLarge(request))
        }
        var claim: IdempotencyClaim?
        if let key = request.headers[Self.idempotencyKey] {
            guard (1...255).contains(key.utf8.count), key.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) }) else {
                intake.refuse(.invalid, source: .nativeAPI)
                throw APIError(
                    .badRequest, "Idempotency-Key must be 1 to 255 visible ASCII characters (a UUID, say)",
                    problems: [.init(field: "Idempotency-Key", problem: "must be 1 to 255 visible ASCII characters")])
            }
            claim = IdempotencyClaim(client: (context.person ?? .owner).rawValue, key: key, request: body)
        }
        var message = body
        if let member = context.member {
            let name = await access.members().first { $0.id == member.id }?.name
            let given = Self.sender(in: body)
            if let named = given.id, named != member.sender {
                intake.refuse(.forbidden, source: .nativeAPI)
                throw APIError(
                    .forbidden, "sender.id: a member sends as their own sender (\(member.sender)), not as \(named); leave sender out",
                    problems: [.init(field: "sender.id", problem: "must be \(member.sender) or left out")])
            }
            if let named = given.name, let name, named != name {
                intake.refuse(.forbidden, source: .nativeAPI)
                throw APIError(
                    .forbidden, "sender.name: a member's messages carry the name the owner gave them (\(name)); leave sender out",
                    problems: [.init(field: "sender.name", problem: "must be \(name) or left out")])
            }
            message = Self.signed(body, sender: member.sender, name: name)
        }
        return try await IntakeAnswers.answer(intake.submit(json: message, source: .nativeAPI, claim: claim))
    }

    /// The `sender.id` and `sender.name` a body names, where it names them (the parser says what
    /// else is wrong with it).
    static func sender(in body: [UInt8]) -> (id: String?, name: String?) {
        guard case .object(let fields)? = try? JSONValue(parsing: body), case .object(let sender)? = fields["sender"] else { return (nil, nil) }
        var given: (id: String?, name: String?) = (nil, nil)
        if case .string(let id)? = sender["id"] { given.id = id }
        if case .string(let name)? = sender["name"] { given.name = name }
        return given
    }

    /// A member's message with their sender and name in it, and the id it chose, if any, kept as
    /// their own (``MessageID/scoped(_:sender:)``). A body that is not a JSON object, or whose
    /// `sender` is not an object, is passed on as it is, for the parser to say what is wrong.
    static func signed(_ body: [UInt8], sender: String, name: String?) -> [UInt8] {
        guard case .object(var fields)? = try? JSONValue(parsing: body) else { return body }
        var given: [String: JSONValue] = [:]
        switch fields["sender"] {
        case .object(let existing)?: given = existing
        case nil: break
        default: return body
        }
        given["id"] = .string(sender)
        if let name { given["name"] = .string(name) }
        fields["sender"] = .object(given)
        if case .string(let id)? = fields["id"], !id.isEmpty { fields["id"] = .string(MessageID.scoped(id, sender: sender)) }
        return Array(JSONValue.object(fields).text.utf8)
    }

    static let idempotencyKey = HTTPField.Name.idempotencyKey
}

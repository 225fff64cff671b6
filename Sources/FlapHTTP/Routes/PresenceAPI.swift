import FlapEndpoints
import FlapJSON
import FlapMembers
import FlapPresence
import FlapStorage
import FoundationEssentials
import Hummingbird

/// `/v1/presence`: who of the household is around, for the owner and members (a viewer key sees
/// nothing); each person changes only their own: whether they are shown, writing, a ping, their
/// page leaving, and (the owner) their name.
struct PresenceAPI: RouteGroup {
    let book: PresenceBook?

    func add(to v1: AccessRoutes) {
        v1.on(.presence, .household) { _, context in
            let (book, person) = try found(context)
            return Answer(await PresenceView(book: book, for: person))
        }
        v1.on(.setPresence, .household) { request, context in
            let (book, person) = try found(context)
            let change = try await Self.change(in: request)
            do {
                try await book.update(person, change)
            } catch let problem as PresenceProblem {
                throw APIError(
                    problem.isTooMany ? .tooManyRequests : .badRequest, problem.description,
                    problems: [.init(field: problem.field, problem: problem.problem)])
            } catch let fault as StorageFault {
                throw APIError(fault.answerStatus, "in force until flapd stops, but not saved for a restart: \(fault.description)")
            }
            return Answer(await PresenceView(book: book, for: person))
        }
    }

    private func found(_ context: APIRequestContext) throws(APIError) -> (PresenceBook, Person) {
        guard let book else { throw APIError(.notFound, "presence is not kept here") }
        guard let person = context.person else { throw APIError(.forbidden, "presence is the household's: sign in as the owner or a member") }
        return (book, person)
    }

    static let fields: Set<String> = ["showMe", "writing", "here", "stream", "name"]

    /// The body's change; a field it does not know (another person's id, say) is refused by name,
    /// since presence changes only the caller's own.
    static func change(in request: Request) async throws -> PresenceChange {
        let usage =
            "send what changes of your own: {\"showMe\": false}, {\"writing\": true}, {\"here\": true} (a ping), "
            + "{\"here\": false, \"stream\": N} (this page leaves) or, the owner, {\"name\": \"Dad\"}"
        guard let body = try await Responses.body(of: request, limit: 4096) else {
            throw APIError(.contentTooLarge, "the request is larger than 4 KiB; \(usage)")
        }
        guard let object = (try? JSONValue(parsing: body))?.object else { throw APIError(.badRequest, "the body is not a JSON object; \(usage)") }
        if let unknown = object.keys.sorted().first(where: { !fields.contains($0) }) {
            throw APIError(
                .badRequest, "\(unknown) is not a field of presence; each person changes only their own: \(usage)",
                problems: [.init(field: unknown, problem: "unknown")])
        }
        guard !object.isEmpty else { throw APIError(.badRequest, "nothing to change; \(usage)") }
        func flag(_ field: String) throws(APIError) -> Bool? {
            guard let value = object[field] else { return nil }
            guard let flag = value.bool else {
                throw APIError(.badRequest, "\(field) is true or false", problems: [.init(field: field, problem: "a boolean")])
            }
            return flag
        }
        var change = PresenceChange(showMe: try flag("showMe"), writing: try flag("writing"), here: try flag("here"))
        if let value = object["name"] {
            guard let name = value.string else {
                throw APIError(.badRequest, "name is a string", problems: [.init(field: "name", problem: "a string")])
            }
            change.name = name
        }
        if let value = object["stream"] {
            guard let stream = value.int, stream > 0 else {
                throw APIError(
                    .badRequest, "stream is the number the live stream's first event gave",
                    problems: [.init(field: "stream", problem: "a positive integer")])
            }
            guard change.here == false else {
                throw APIError(
                    .badRequest, "stream goes with here: false (the page leaving)", problems: [.init(field: "stream", problem: "needs here: false")])
            }
            change.stream = stream
        }
        return change
    }
}

/// `GET /v1/presence`'s answer: the household as the caller sees them, and their own setting.
struct PresenceView: Encodable {
    var people: [PersonPresence]
    var showMe: Bool

    init(book: PresenceBook, for person: Person) async {
        people = await book.people(for: person)
        showMe = await book.showsMe(person)
    }

    /// As the live stream tells it: `event: presence`.
    var serverSentEvent: String {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        return "event: presence\ndata: \(String(decoding: (try? encoder.encode(self)) ?? Data("{}".utf8), as: UTF8.self))\n\n"
    }
}

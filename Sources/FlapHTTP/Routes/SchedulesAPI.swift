import FlapEndpoints
import FlapJSON
import FlapTime
import FoundationEssentials
import Hummingbird

/// Recurring messages under `/v1/schedules`: list, add, change, remove. The configuration
/// file's schedules are listed with `"fromFile": true` and cannot be changed here.
struct SchedulesAPI: RouteGroup {
    let book: (any ScheduleBook)?

    func add(to v1: AccessRoutes) {
        v1.on(.schedules, .owner) { _, _ in
            guard let book else { return Answer(["schedules": [ScheduleView]()]) }
            return Answer(["schedules": await book.list()])
        }
        v1.on(.addSchedule, .owner) { request, _ in
            try await change(request) { book, definition in try await book.add(definition) }
        }
        v1.on(.replaceSchedule, .owner) { request, context in
            let name = context.parameter("name")
            return try await change(request, name: name) { book, definition in try await book.replace(name, with: definition) }
        }
        v1.on(.removeSchedule, .owner) { _, context in
            let name = context.parameter("name")
            guard let book else { throw Self.refusal(.missing(name)) }
            do { try await book.remove(name) } catch let error as ScheduleBookError { throw Self.refusal(error) }
            return Response(status: .noContent)
        }
    }

    private func change(
        _ request: Request, name: String? = nil,
        _ apply: (any ScheduleBook, ScheduleSettings) async throws -> ScheduleView
    ) async throws -> Answer<ScheduleView> {
        guard let body = try await Responses.body(of: request, limit: Responses.maximumBody) else {
            throw APIError(.contentTooLarge, Responses.tooLarge(request))
        }
        guard (try? JSONValue(parsing: body))?.object != nil else {
            throw APIError(
                .badRequest,
                "a schedule is a JSON object such as {\"name\": \"morning\", \"days\": [\"weekdays\"], \"times\": [\"07:00\"], \"text\": \"GOOD MORNING\"}"
            )
        }
        // Decoded from the body itself: a round trip through a JSON value would turn a number
        // too large for its field into one JSONDecoder calls invalid JSON.
        let decoder = JSONDecoder()
        if let name { decoder.userInfo[ScheduleSettings.nameFromPath] = name }
        let definition: ScheduleSettings
        do {
            definition = try decoder.decode(ScheduleSettings.self, from: Data(body))
        } catch let error as DecodingError {
            throw APIError(.badRequest, Self.problem(error))
        }
        guard let book else { throw APIError(.serviceUnavailable, "schedules are not running") }
        do {
            let view = try await apply(book, definition)
            return Answer(status: name == nil ? .created : .ok, view)
        } catch let error as ScheduleBookError {
            throw Self.refusal(error)
        }
    }

    /// What is wrong with a body that is JSON but not a schedule, naming the field.
    static func problem(_ error: DecodingError) -> String {
        func field(_ path: [any CodingKey]) -> String {
            path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().trimmingPrefix(".").description
        }
        switch error {
        case .keyNotFound(let key, let context): return "\(field(context.codingPath + [key])): is missing"
        case .typeMismatch(let type, let context): return "\(field(context.codingPath)): must be \(Self.describe(type))"
        case .valueNotFound(let type, let context): return "\(field(context.codingPath)): must be \(Self.describe(type)), not null"
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            // The body parsed as JSON, so what the decoder refuses is a number out of its range.
            return "a number does not fit its field (codes and holdMinutes are whole numbers of at most 64 bits)"
        case .dataCorrupted(let context): return "\(field(context.codingPath)): \(context.debugDescription)"
        @unknown default: return "not a schedule"
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        if type == Int.self { return "a whole number" }
        if type == String.self { return "a string" }
        return String(describing: type).hasPrefix("Array") ? "a list" : "of another type"
    }

    static func refusal(_ error: ScheduleBookError) -> APIError {
        switch error {
        case .invalid(let errors):
            APIError(.badRequest, errors.description, problems: errors.problems.map { .init(field: $0.field, problem: $0.problem) })
        case .fromFile(let name):
            APIError(.conflict, "\(name) is declared in the configuration file; change it there")
        case .missing(let name):
            APIError(.notFound, "no schedule called \(name)")
        case .full(let most):
            APIError(.conflict, "flapd keeps at most \(most) schedules; remove one (\(Endpoint.removeSchedule)) first")
        case .exists(let name):
            APIError(.conflict, "a schedule is already called \(name); \(Endpoint.replaceSchedule.request(name)) changes it")
        }
    }
}

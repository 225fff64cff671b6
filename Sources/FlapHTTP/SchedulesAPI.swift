import FlapTime
import Foundation
import Hummingbird

/// Recurring messages under `/v1/schedules`: list, add, change, remove. The configuration
/// file's schedules are listed with `"fromFile": true` and cannot be changed here.
struct SchedulesAPI {
    let book: (any ScheduleBook)?

    func add(to v1: RouterGroup<BasicRequestContext>) {
        v1.get("schedules") { _, _ in
            guard let book else { return Responses.json(.ok, ["schedules": [ScheduleView]()]) }
            return Responses.json(.ok, ["schedules": await book.list()])
        }
        v1.post("schedules") { request, _ in
            try await change(request) { book, definition in try await book.add(definition) }
        }
        v1.put("schedules/:name") { request, context in
            let name = context.parameters.get("name") ?? ""
            return try await change(request, name: name) { book, definition in try await book.replace(name, with: definition) }
        }
        v1.delete("schedules/:name") { _, context in
            let name = context.parameters.get("name") ?? ""
            guard let book else { return Self.answer(.missing(name)) }
            do { try await book.remove(name) } catch let error as ScheduleBookError { return Self.answer(error) }
            return Response(status: .noContent)
        }
    }

    private func change(_ request: Request, name: String? = nil,
                        _ apply: (any ScheduleBook, ScheduleDefinition) async throws -> ScheduleView) async throws -> Response {
        guard let body = try await Responses.body(of: request, limit: Responses.maximumBody) else {
            return Responses.error(.contentTooLarge, Responses.tooLarge(request))
        }
        var object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]
        if let name, object != nil, object?["name"] == nil { object?["name"] = name }
        guard let object, let data = try? JSONSerialization.data(withJSONObject: object) else {
            return Responses.error(.badRequest, "a schedule is a JSON object such as {\"name\": \"morning\", \"days\": [\"weekdays\"], \"times\": [\"07:00\"], \"text\": \"GOOD MORNING\"}")
        }
        let definition: ScheduleDefinition
        do {
            definition = try JSONDecoder().decode(ScheduleDefinition.self, from: data)
        } catch DecodingError.keyNotFound(let key, _) {
            return Responses.error(.badRequest, "\(key.stringValue): is missing")
        } catch DecodingError.typeMismatch(_, let context) {
            return Responses.error(.badRequest, "\(context.codingPath.map(\.stringValue).joined(separator: ".")): has the wrong type")
        } catch {
            return Responses.error(.badRequest, "not a schedule: \(error)")
        }
        guard let book else { return Responses.error(.serviceUnavailable, "schedules are not running") }
        do {
            let view = try await apply(book, definition)
            return Responses.json(name == nil ? .created : .ok, view)
        } catch let error as ScheduleBookError {
            return Self.answer(error)
        }
    }

    static func answer(_ error: ScheduleBookError) -> Response {
        switch error {
        case .invalid(let errors):
            return Responses.error(.badRequest, errors.description, problems: errors.problems.map { .init(field: $0.field, problem: $0.problem) })
        case .fromFile(let name):
            return Responses.error(.conflict, "\(name) is declared in the configuration file; change it there")
        case .missing(let name):
            return Responses.error(.notFound, "no schedule called \(name)")
        case .exists(let name):
            return Responses.error(.conflict, "a schedule is already called \(name); PUT /v1/schedules/\(name) changes it")
        }
    }
}

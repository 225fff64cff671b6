import FlapEndpoints
import FlapHardware
import FlapJSON
import Hummingbird

/// `/v1/panels/{id}/numbering`: a wall's modules numbered from where they hang (Universal
/// Firmware's). GET says who answers at each place and which modules have none
/// (`?ask=true` asks each place first); `mark` makes one show `?`; `place` gives it the ID of
/// the place the owner taps, and the wall shows READY once every place answers.
struct NumberingAPI: RouteGroup {
    let modules: any ModuleCommands

    func add(to v1: AccessRoutes) {
        v1.on(.numbering, .owner) { request, context in
            let asking = request.uri.queryParameters.get("ask").map { ["true", "1", "yes"].contains($0) } ?? false
            return try await answer { () throws(ModuleCommandError) in
                try await modules.numbering(panel: context.parameter("id"), asking: asking)
            }
        }
        v1.on(.markModule, .owner) { request, context in
            let object = try await Self.object(request, example: "{\"serial\": \"5657…\"}")
            guard let serial = object["serial"]?.string else { throw APIError(.badRequest, "send {\"serial\": \"5657…\"}: the module to mark") }
            return try await answer { () throws(ModuleCommandError) in try await modules.mark(serial: serial, panel: context.parameter("id")) }
        }
        v1.on(.placeModule, .owner) { request, context in
            let example = "{\"serial\": \"5657…\", \"row\": 1, \"column\": 2}"
            let object = try await Self.object(request, example: example)
            guard let serial = object["serial"]?.string, let row = object["row"]?.int, let column = object["column"]?.int else {
                throw APIError(.badRequest, "send \(example): the module and the place it hangs at")
            }
            return try await answer { () throws(ModuleCommandError) in
                try await modules.place(serial: serial, panel: context.parameter("id"), row: row, column: column)
            }
        }
    }

    private func answer(_ step: () async throws(ModuleCommandError) -> ModuleNumbering) async throws -> Answer<ModuleNumbering> {
        do {
            return Answer(try await step())
        } catch {
            throw ModulesAPI.refusal(error)
        }
    }

    private static func object(_ request: Request, example: String) async throws -> [String: JSONValue] {
        guard let body = try await Responses.body(of: request, limit: 1024) else {
            throw APIError(.contentTooLarge, Responses.tooLarge(request, limit: 1024))
        }
        guard let object = (try? JSONValue(parsing: body))?.object else { throw APIError(.badRequest, "send \(example)") }
        return object
    }
}

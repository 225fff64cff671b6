import FlapEndpoints
import FlapHardware
import FlapJSON
import Hummingbird

/// `/v1/panels/{id}/modules/search`: a wall whose modules never announce themselves (an SBB
/// wall's) searched by asking each address of a range. `POST` answers once every address was
/// asked; `GET` says meanwhile how far it has come.
struct ModuleSearchAPI: RouteGroup {
    let modules: any ModuleCommands

    /// The addresses asked when the request names none: 32, about 8 s where none answers.
    static let defaultAddresses = 0...31

    /// `GET`'s answer: the search, null before the first.
    struct State: Encodable, Sendable {
        var panel: String
        var search: ModuleSearch?
    }

    func add(to v1: AccessRoutes) {
        v1.on(.moduleSearch, .owner) { _, context in
            let panel = context.parameter("id")
            let search = try await Self.asking { () throws(ModuleCommandError) in try await modules.moduleSearch(panel: panel) }
            return Answer(State(panel: panel, search: search))
        }
        v1.on(.searchModules, .owner) { request, context in
            let usage = "send {} or {\"first\": 0, \"last\": 31}: the addresses to ask, 0 to 255"
            guard let body = try await Responses.body(of: request, limit: 1024) else {
                throw APIError(.contentTooLarge, Responses.tooLarge(request, limit: 1024))
            }
            var first = Self.defaultAddresses.lowerBound, last = Self.defaultAddresses.upperBound
            if !body.isEmpty {
                guard let object = (try? JSONValue(parsing: body))?.object else { throw APIError(.badRequest, usage) }
                if let value = object["first"] {
                    guard let given = value.int else { throw APIError(.badRequest, usage) }
                    first = given
                    last = min(255, given + 31)
                }
                if let value = object["last"] {
                    guard let given = value.int else { throw APIError(.badRequest, usage) }
                    last = given
                }
            }
            let panel = context.parameter("id")
            return Answer(
                try await Self.asking { () throws(ModuleCommandError) in try await modules.findModules(panel: panel, first: first, last: last) })
        }
    }

    private static func asking<T>(_ step: () async throws(ModuleCommandError) -> T) async throws(APIError) -> T {
        do {
            return try await step()
        } catch .noModules(let panel) {
            throw APIError(.notFound, "no panel \(panel) whose modules are found by address (sbb panels)")
        } catch {
            throw ModulesAPI.refusal(error)
        }
    }
}

import FlapHardware
import FlapJSON
import FoundationEssentials
import Hummingbird

/// `POST /v1/panels/{id}/modules`: one module's firmware command (an RS-485 wall's calibration):
/// `{"row": R, "column": C, "command": "home" | "measure" | "offset" | "nudge" | "store" | "dump"
/// | "id" | "auto-home" | "erase", …}` with `steps`, `flap`, `id` or `on` as the command needs.
struct ModulesAPI: RouteGroup {
    let modules: any ModuleCommands

    func add(to v1: AccessRoutes) {
        v1.post("panels/:id/modules", .owner) { request, context in try await send(request, panel: context.parameter("id")) }
    }

    static let usage =
        "send {\"row\": R, \"column\": C, \"command\": \"home\"}; commands: home, measure, offset (steps), nudge (steps), store (flap, steps), dump, id (id), auto-home (on), erase"

    private func send(_ request: Request, panel: String) async throws -> Answer<ModuleReply> {
        guard let body = try await Responses.body(of: request, limit: 4096) else {
            throw APIError(.contentTooLarge, Responses.tooLarge(request, limit: 4096))
        }
        guard let object = (try? JSONValue(parsing: body))?.object, let row = object["row"]?.int, let column = object["column"]?.int,
            let name = object["command"]?.string
        else { throw APIError(.badRequest, Self.usage) }
        func number(_ key: String) throws(APIError) -> Int {
            guard let value = object[key]?.int, value >= 0 else { throw APIError(.badRequest, "\(name) needs \(key), a whole number from 0") }
            return value
        }
        let command: ModuleCommand
        switch name {
        case "home": command = .home
        case "measure": command = .measure
        case "offset": command = .offset(try number("steps"))
        case "nudge": command = .nudge(try number("steps"))
        case "store":
            guard let flap = object["flap"]?.string, flap.unicodeScalars.count == 1 else {
                throw APIError(
                    .badRequest, "store needs flap, the flap's character as the reel names it (\"A\", \"q\" for the double quote, \"r\" for red)")
            }
            command = .store(flap: flap, step: try number("steps"))
        case "dump": command = .dump
        case "id": command = .setID(try number("id"))
        case "auto-home":
            guard let on = object["on"]?.bool else { throw APIError(.badRequest, "auto-home needs on: true or false") }
            command = .autoHome(on)
        case "erase": command = .erase
        default: throw APIError(.badRequest, "\(name.debugDescription) is not a command; \(Self.usage)")
        }
        do {
            return Answer(try await modules.send(command, panel: panel, row: row, column: column))
        } catch {
            switch error {
            case .noModules(let panel): throw APIError(.notFound, "no panel \(panel) whose modules take commands (only rs485 panels)")
            case .offTheBoard(let rows, let columns): throw APIError(.badRequest, "row must be 1 to \(rows) and column 1 to \(columns)")
            case .invalid(let problem): throw APIError(.badRequest, problem)
            case .noAnswer(let problem): throw APIError(.gatewayTimeout, problem)
            }
        }
    }
}

import FlapEndpoints
import FlapHardware
import FlapJSON
import FoundationEssentials
import Hummingbird

/// `/v1/panels/{id}/modules`: the commands a panel's modules take, as its driver declares them
/// (an RS-485 wall's calibration, an SBB module's blade), and one of them sent to one module:
/// `{"row": R, "column": C, "command": "nudge", "steps": 12}`, each argument under its own name.
struct ModulesAPI: RouteGroup {
    let modules: any ModuleCommands

    func add(to v1: AccessRoutes) {
        v1.on(.moduleCommands, .owner) { _, context in
            let panel = context.parameter("id")
            return Answer(Commands(panel: panel, commands: try await declared(panel).map(Command.init)))
        }
        v1.on(.moduleCommand, .owner) { request, context in try await send(request, panel: context.parameter("id")) }
    }

    private func declared(_ panel: String) async throws -> [ModuleCommandDeclaration] {
        guard let declared = await modules.moduleCommands(panel: panel) else { throw Self.refusal(.noModules(panel: panel)) }
        return declared
    }

    private func send(_ request: Request, panel: String) async throws -> Answer<ModuleReply> {
        guard let body = try await Responses.body(of: request, limit: 4096) else {
            throw APIError(.contentTooLarge, Responses.tooLarge(request, limit: 4096))
        }
        let declared = try await declared(panel)
        guard let object = (try? JSONValue(parsing: body))?.object, let row = object["row"]?.int, let column = object["column"]?.int,
            let name = object["command"]?.string
        else { throw APIError(.badRequest, "send {\"row\": R, \"column\": C, \"command\": \"home\"}; commands: \(declared.synopses)") }
        do {
            let call = try declared.call(name) { argument in
                switch argument.kind {
                case .number: object[argument.name]?.int.map(ModuleArgumentValue.number)
                case .character: object[argument.name]?.string.flatMap { $0.unicodeScalars.count == 1 ? .character($0) : nil }
                case .flag: object[argument.name]?.bool.map(ModuleArgumentValue.flag)
                }
            }
            return Answer(try await modules.send(call, panel: panel, row: row, column: column))
        } catch {
            throw Self.refusal(error)
        }
    }

    static func refusal(_ error: ModuleCommandError) -> APIError {
        switch error {
        case .noModules(let panel): APIError(.notFound, "no panel \(panel) whose modules take commands (rs485 and sbb panels)")
        case .offTheBoard(let rows, let columns): APIError(.badRequest, "row must be 1 to \(rows) and column 1 to \(columns)")
        case .invalid(let problem): APIError(.badRequest, problem)
        case .noAnswer(let problem): APIError(.gatewayTimeout, problem)
        case .unknownToModule(let problem): APIError(.unprocessableContent, problem)
        case .busy(let problem): APIError(.conflict, problem)
        }
    }

    /// `GET /v1/panels/{id}/modules`'s answer.
    struct Commands: Encodable, Sendable {
        var panel: String
        var commands: [Command]
    }

    /// A declared command as JSON: its arguments with JSON Schema's words for their kinds.
    struct Command: Encodable, Sendable {
        var name: String, help: String, synopsis: String
        var arguments: [Argument]

        struct Argument: Encodable, Sendable {
            var name: String, type: String, help: String
            var minimum: Int?, maximum: Int?
        }

        init(_ declaration: ModuleCommandDeclaration) {
            name = declaration.name
            help = declaration.help
            synopsis = declaration.synopsis
            arguments = declaration.arguments.map { argument in
                switch argument.kind {
                case .number(let range):
                    Argument(name: argument.name, type: "integer", help: argument.help, minimum: range.lowerBound, maximum: range.upperBound)
                case .character: Argument(name: argument.name, type: "character", help: argument.help)
                case .flag: Argument(name: argument.name, type: "boolean", help: argument.help)
                }
            }
        }
    }
}

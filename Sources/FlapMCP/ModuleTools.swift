import FlapEndpoints
import FlapJSON

/// A panel's modules' own commands (an RS-485 wall's calibration), as its driver declares them:
/// the list is asked of the API, so a new driver's commands need no tool of their own.
enum ModuleTools {
    static let panel = BoardTool.Parameter(name: "panel", kind: .string, description: "The panel's id (status lists them).", required: true)

    static let list = BoardTool(
        name: "list_module_commands", title: "List a panel's module commands",
        description:
            "The commands the modules of a panel take (only panels whose modules take commands, such as an RS-485 wall), each with what it does and its arguments.",
        parameters: [panel],
        readOnly: true,
        run: { arguments, api in
            try await api.call(.moduleCommands, arguments.string("panel") ?? "") { answer in
                (answer?["commands"]?.array ?? []).compactMap { $0["synopsis"]?.string }.joined(separator: ", ")
            }
        })

    static let send = BoardTool(
        name: "send_module_command", title: "Send one module a command",
        description:
            "Sends the module at row and column of a panel one of the commands list_module_commands gives (calibrating, renumbering, erasing its stored positions), between boards, and gives its answer.",
        parameters: [
            panel,
            .init(name: "row", kind: .integer(1...99), description: "The module's row, from 1.", required: true),
            .init(name: "column", kind: .integer(1...99), description: "The module's column, from 1.", required: true),
            .init(name: "command", kind: .string, description: "The command's name, as list_module_commands gives it.", required: true),
            .init(
                name: "arguments", kind: .object([:]),
                description: "The command's arguments by name, as list_module_commands gives them, such as {\"steps\": 12}.")
        ],
        destructive: true,
        run: { arguments, api in
            var body = arguments["arguments"]?.object ?? [:]
            for name in ["row", "column", "command"] { body[name] = arguments[name] }
            return try await api.call(.moduleCommand, arguments.string("panel") ?? "", body: .object(body)) { reply in
                "module \(reply?["id"]?.int ?? 0) (row \(reply?["row"]?.int ?? 0), column \(reply?["column"]?.int ?? 0)): sent \(reply?["sent"]?.string ?? "")"
            }
        })
}

import FlapHTTP
import FlapHardware

/// Module commands on the panels whose modules take them (``TakesModuleCommands``).
extension ApplianceBoards {
    func moduleCommands(panel id: String) async -> [ModuleCommandDeclaration]? {
        modules(of: id)?.moduleCommands
    }

    func send(_ call: ModuleCommandCall, panel id: String, row: Int, column: Int) async throws(ModuleCommandError) -> ModuleReply {
        guard let modules = modules(of: id) else { throw .noModules(panel: id) }
        return try await modules.send(call, row: row, column: column)
    }

    private func modules(of id: String) -> (any TakesModuleCommands)? {
        panels.first(where: { $0.configuration.id == id })?.panel as? any TakesModuleCommands
    }
}

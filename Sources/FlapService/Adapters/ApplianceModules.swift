import FlapHTTP
import FlapHardware

/// Module commands on the panels whose modules take them (``TakesModuleCommands``).
extension ApplianceBoards {
    func send(_ command: ModuleCommand, panel id: String, row: Int, column: Int) async throws(ModuleCommandError) -> ModuleReply {
        guard let runtime = panels.first(where: { $0.configuration.id == id }), let modules = runtime.panel as? any TakesModuleCommands
        else { throw .noModules(panel: id) }
        return try await modules.send(command, row: row, column: column)
    }
}

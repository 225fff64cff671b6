import FlapHTTP
import FlapHardware

/// Searching a bus's addresses for its modules, on the panels that can (``FindsModules``).
extension ApplianceBoards {
    func moduleSearch(panel id: String) async throws(ModuleCommandError) -> ModuleSearch? {
        await (try searched(id)).moduleSearch()
    }

    func findModules(panel id: String, first: Int, last: Int) async throws(ModuleCommandError) -> ModuleSearch {
        try await searched(id).findModules(first: first, last: last)
    }

    private func searched(_ id: String) throws(ModuleCommandError) -> any FindsModules {
        guard let modules = panels.first(where: { $0.configuration.id == id })?.panel as? any FindsModules else { throw .noModules(panel: id) }
        return modules
    }
}

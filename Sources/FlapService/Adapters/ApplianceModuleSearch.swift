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

/// Modules turned to blades named by label or index, on the panels whose blades carry labels
/// (``ShowsBlades``).
extension ApplianceBoards {
    func showBlades(panel id: String, _ choices: [BladeChoice?]) async throws(ModuleCommandError) -> (blades: [Int], labels: [String]) {
        guard let modules = panels.first(where: { $0.configuration.id == id })?.panel as? any ShowsBlades else { throw .noModules(panel: id) }
        let blades = try await modules.show(blades: choices)
        return (blades, blades.indices.map { modules.label(ofBlade: blades[$0], module: $0) })
    }
}

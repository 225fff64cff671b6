import FlapCore
import FlapDisplay
import FlapHTTP
import FlapHardware

/// Numbering a wall's modules from where they hang, on the panels that can (``NumbersModules``):
/// once the last place answers, the wall shows READY.
extension ApplianceBoards {
    func numbering(panel id: String, asking: Bool) async throws(ModuleCommandError) -> ModuleNumbering {
        try await numbered(id).modules.numbering(asking: asking)
    }

    func mark(serial: String, panel id: String) async throws(ModuleCommandError) -> ModuleNumbering {
        try await numbered(id).modules.mark(serial: serial)
    }

    func place(serial: String, panel id: String, row: Int, column: Int) async throws(ModuleCommandError) -> ModuleNumbering {
        let (runtime, modules) = try numbered(id)
        let placed = try await modules.place(serial: serial, row: row, column: column)
        if placed.complete, !runtime.veil.isOn { try? await runtime.motion.show(Self.ready(runtime.panel.info.size), token: nil) }
        return placed
    }

    private func numbered(_ id: String) throws(ModuleCommandError) -> (runtime: PanelRuntime, modules: any NumbersModules) {
        guard let runtime = panels.first(where: { $0.configuration.id == id }), let modules = runtime.panel as? any NumbersModules else {
            throw .noModules(panel: id)
        }
        return (runtime, modules)
    }

    /// READY in the middle of the wall (READ on a wall of four, and so on).
    static func ready(_ size: BoardSize) -> Board {
        var options = LayoutOptions(size: size)
        options.align = .center
        options.valign = .middle
        let text = String("READY".prefix(size.columns))
        guard let laid = try? TextLayout.encodeText(text, options: options), let board = try? Board(size: size, codes: laid.codes) else {
            return Board(size: size)
        }
        return board
    }
}

import FlapCore
import FlapDisplay
import FlapHTTP
import FlapHardware

extension PanelRuntime {
    /// The panel as the APIs report it.
    func view() async -> PanelView {
        // Veiled, it shows the setup code, which no answer may carry.
        let board = veil.isOn ? Board(size: configuration.size ?? .flagship) : await motion.restingBoard()
        let health = await panel.health()
        var view = PanelView(
            id: configuration.id, driver: configuration.driver, drum: configuration.drum.name, board: board,
            moving: await motion.isMoving, messageId: await coordinator.target, connected: health.connected,
            faults: health.faults.map {
                PanelFault(row: $0.row, column: $0.column, fault: $0.kind.rawValue, rehomeAttempts: $0.attempts, said: $0.said)
            })
        view.quietUntil = await coordinator.quietUntil
        view.library = library
        view.flaps = configuration.drum
        // As the modules said them, where they did (a Universal Firmware module's `A`).
        view.moduleFlaps = await panel.planTiming().moduleDrums ?? configuration.moduleDrums
        return view
    }
}

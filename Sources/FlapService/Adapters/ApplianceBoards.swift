import FlapCore
import FlapDisplay
import FlapHTTP
import FlapHardware
import FlapTime

/// The panels as the APIs see them.
struct ApplianceBoards: PanelsQuery, SoundControl, CalibrationControl, BoardSwitches, ModuleCommands {
    let panels: [PanelRuntime]
    let sound: ClackPlayer<ApplianceClock>?
    let clack: ClackSample
    let soundSettings: SoundSettings
    let savedSound: SavedSound
    let calibrationStore: Calibration
    let controls: ApplianceControls

    func panels() async -> [PanelView] {
        var views: [PanelView] = []
        for panel in panels { views.append(await panel.view()) }
        return views
    }

    func flipDuration(to board: Board, strategy: TransitionStrategy?) async -> Duration? {
        guard let first = panels.first, board.size == first.configuration.size else { return nil }
        return await first.motion.duration(to: board, transition: strategy.flatMap { try? Transition(strategy: $0) })
    }

    func calibration(panel id: String) async -> Calibrated? {
        guard let (modules, size) = offsets(of: id) else { return nil }
        return Calibrated(panel: id, size: size, offsets: await modules.moduleOffsets(), stepsPerFlap: modules.stepsPerFlap)
    }

    func calibrate(panel id: String, row: Int, column: Int, offsetSteps: Int) async throws -> Calibrated {
        guard let (modules, size) = offsets(of: id) else { throw ServiceError.noPanelToCalibrate(panel: id) }
        await modules.setOffset(offsetSteps, module: (row - 1) * size.columns + column - 1)
        let offsets = await modules.moduleOffsets()
        try calibrationStore.save(offsets, panel: id)
        return Calibrated(panel: id, size: size, offsets: offsets, stepsPerFlap: modules.stepsPerFlap)
    }

    /// The panel `id`'s hand-set offsets, and its size.
    private func offsets(of id: String) -> (any TakesModuleOffsets, BoardSize)? {
        guard let panel = panels.first(where: { $0.configuration.id == id }), let modules = panel.panel as? any TakesModuleOffsets,
            let size = panel.configuration.size
        else { return nil }
        return (modules, size)
    }

    func soundStatus() async -> (state: String, reason: String?) {
        guard let sound else { return ("disabled", nil) }
        let state = await sound.state
        return (state.name, state.reason)
    }

    func sound() async -> SoundView {
        guard let sound else {
            return SoundView(enabled: false, state: "disabled", reason: nil, mute: false, volume: 0, quietHours: nil, device: soundSettings.device)
        }
        let (settings, state) = (await sound.currentSettings, await sound.state)
        return SoundView(
            enabled: true, state: state.name, reason: state.reason, mute: settings.mute, volume: settings.volume,
            quietHours: settings.quietHours?.description, device: settings.device)
    }

    func setSound(mute: Bool, volume: Int, quietHours: String?) async throws -> SoundView {
        _ = try await controls.setSound(mute: mute, volume: volume, quietHours: quietHours)
        return await self.sound()
    }

    func clackSample() async -> ClackSample { clack }

    func switches() async -> SwitchesView { await controls.switches() }

    func setSwitches(paused: Bool?, transition: TransitionStrategy?) async throws -> SwitchesView {
        try await controls.setSwitches(paused: paused, transition: transition)
    }

    func clearEverySlot() async throws -> Int { try await controls.clearEverySlot() }
}

extension Calibrated {
    init(panel: String, size: BoardSize, offsets: [Int], stepsPerFlap: Double) {
        self.init(panel: panel, rows: size.rows, columns: size.columns, offsets: offsets, stepsPerFlap: stepsPerFlap)
    }
}

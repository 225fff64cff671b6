import FlapCore
import FlapDisplay
import FlapHTTP
import FlapMQTT
import FlapMessaging
import FlapPrimitives
import FlapStorage
import FlapTime
import FoundationEssentials
import Synchronization

/// What Home Assistant's button, switches, number and select, `/v1/controls`, `DELETE /v1/slots`
/// and `/v1/sound` change: the inbox's slots, the pause every panel watches, the clacks and each
/// panel's transition. The pause and the transition are kept in `board-controls.json`; each
/// change, wherever it came from, is told to whoever watches ``changes()`` (Home Assistant's
/// retained state).
final class ApplianceControls: BoardControls, Sendable {
    let inbox: Inbox
    let pause: BoardPause
    private let sound: ClackPlayer<ApplianceClock>?
    private let savedSound: SavedSound
    private let saved: SavedControls
    private let transition: Mutex<TransitionStrategy>
    private let panels = Mutex<[PanelRuntime]>([])
    private let watchers = Watchers<ControlState>()
    /// The wall clock a clearing is stamped with.
    private let now: @Sendable () -> Date

    /// `fallback`: the first panel's configured transition, until one is chosen.
    init(
        inbox: Inbox, sound: ClackPlayer<ApplianceClock>?, savedSound: SavedSound, directory: String,
        fallback: TransitionStrategy, now: @escaping @Sendable () -> Date
    ) {
        self.now = now
        saved = SavedControls(directory: directory)
        let file = saved.load()
        pause = BoardPause(paused: file?.paused ?? false)
        transition = Mutex(file?.transition.flatMap(TransitionStrategy.init(rawValue:)) ?? fallback)
        self.inbox = inbox
        self.sound = sound
        self.savedSound = savedSound
    }

    /// The controls as each change leaves them, from now on.
    func changes() -> AsyncStream<ControlState> { watchers.watch(bufferingPolicy: .bufferingNewest(1)) }

    private func changed() async {
        let state = await controlState()
        watchers.yield(state)
    }

    /// The panels whose transition the select sets, once they exist; a transition chosen
    /// before a restart is theirs again.
    func attach(_ panels: [PanelRuntime]) async {
        self.panels.withLock { $0 = panels }
        if saved.load()?.transition != nil { await applyTransition() }
    }

    func controlState() async -> ControlState {
        let settings = await sound?.currentSettings
        return ControlState(
            paused: pause.isPaused, muted: settings?.mute ?? false, volume: settings?.volume ?? 0,
            transition: transition.withLock { $0.rawValue })
    }

    func clearBoard() async throws { _ = try await inbox.clearAllSlots(now: now()) }

    func setPaused(_ paused: Bool) async throws {
        pause.set(paused)
        await changed()
        try save()
    }

    func setMuted(_ muted: Bool) async throws {
        guard let settings = await sound?.currentSettings else { throw ServiceError.soundOff }
        _ = try await setSound(mute: muted, volume: settings.volume, quietHours: settings.quietHours?.description)
    }

    func setVolume(_ volume: Int) async throws {
        guard let settings = await sound?.currentSettings else { throw ServiceError.soundOff }
        _ = try await setSound(mute: settings.mute, volume: volume, quietHours: settings.quietHours?.description)
    }

    func setTransition(_ strategy: TransitionStrategy) async throws {
        transition.withLock { $0 = strategy }
        await applyTransition()
        await changed()
        try save()
    }

    /// The clacks' settings, saved for a restart, and told to Home Assistant.
    func setSound(mute: Bool, volume: Int, quietHours: String?) async throws -> SoundSettings {
        guard let sound else { throw ServiceError.soundOff }
        await sound.adjust(mute: mute, volume: volume, quietHours: quietHours.flatMap(QuietHours.init))
        let settings = await sound.currentSettings
        await changed()
        try savedSound.save(settings)
        return settings
    }

    private func applyTransition() async {
        guard let chosen = try? Transition(strategy: transition.withLock({ $0 })) else { return }
        for panel in panels.withLock({ $0 }) { await panel.motion.setDefaultTransition(chosen) }
    }

    private func save() throws {
        try saved.save(.init(paused: pause.isPaused, transition: transition.withLock { $0.rawValue }))
    }
}

extension ApplianceControls: BoardSwitches {
    func switches() async -> SwitchesView {
        SwitchesView(paused: pause.isPaused, transition: transition.withLock { $0.rawValue })
    }

    func setSwitches(paused: Bool?, transition strategy: TransitionStrategy?) async throws -> SwitchesView {
        if let paused { pause.set(paused) }
        if let strategy {
            transition.withLock { $0 = strategy }
            await applyTransition()
        }
        await changed()
        try save()
        return await switches()
    }

    func clearEverySlot() async throws -> Int { try await inbox.clearAllSlots(now: now()) }
}

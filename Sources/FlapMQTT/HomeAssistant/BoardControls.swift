import FlapCore

/// What Home Assistant's button, switches, number and select change in flapd; FlapService
/// fills it in with the inbox, the pause, the clacks and the panels' motion.
public protocol BoardControls: Sendable {
    /// Where they stand.
    func controlState() async -> ControlState
    /// Empties every slot, the temporary message's too: the board goes blank.
    func clearBoard() async throws
    /// "Quiet now": the board holds still and messages wait until it is switched off.
    func setPaused(_ paused: Bool) async throws
    func setMuted(_ muted: Bool) async throws
    /// 0–100.
    func setVolume(_ volume: Int) async throws
    /// The transition of messages that do not ask for one.
    func setTransition(_ strategy: TransitionStrategy) async throws
}

/// The controls' state, retained on `<base>/<device>/ha/controls` and read by the entities.
public struct ControlState: Sendable, Codable, Equatable {
    /// Whether the board holds still ("quiet now").
    public var paused: Bool
    /// Whether the clacks are silenced.
    public var muted: Bool
    /// The clacks' volume, 0–100.
    public var volume: Int
    /// The default transition's name.
    public var transition: String

    /// The controls as given.
    public init(paused: Bool, muted: Bool, volume: Int, transition: String) {
        self.paused = paused
        self.muted = muted
        self.volume = volume
        self.transition = transition
    }
}

import FoundationEssentials

/// What a panel does, as it happens. The panel's runtime and its display publish these; what
/// shows or counts them (the page and the TV, MQTT, the metrics) subscribes, and the panel knows
/// none of them.
public enum PanelEvent: Sendable, Equatable {
    /// What the panel shows as flapd starts (a split-flap keeps its flaps), and its message.
    case resting(panel: String, board: Board, messageId: String?)
    /// A plan began toward `messageId`, turning `flaps` flaps.
    case planStarted(panel: String, messageId: String?, flaps: Int)
    /// The plan as a page animates it: its time zero on the wall clock, and how loud the board
    /// plays its clacks (0…1; nil when it does not).
    case planPlaying(panel: String, plan: FlipPlan, startedAt: Date, volume: Double?)
    /// The board came to rest showing `messageId`, after turning `flaps` flaps.
    case displayed(panel: String, board: Board, messageId: String?, flaps: Int)
}

import FlapCore
import FlapHardware
import FlapPrimitives

/// What a simulated module did.
public enum PanelEventKind: Sendable, Equatable {
    /// The module began to turn.
    case started
    /// A flap landed; the module now shows drum index `position`.
    case landed(position: Int)
}

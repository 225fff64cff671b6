import FlapCore
import FlapHardware
import FlapPrimitives

/// One thing a simulated module did.
public struct PanelEvent<Instant: InstantProtocol>: Sendable where Instant: Sendable {
    /// When.
    public var instant: Instant
    /// Row-major module index.
    public var module: Int
    /// What.
    public var kind: PanelEventKind
}

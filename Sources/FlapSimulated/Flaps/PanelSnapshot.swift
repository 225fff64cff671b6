import FlapCore
import FlapHardware
import FlapPrimitives

/// What a panel shows at one moment, and which modules are turning.
public struct PanelSnapshot: Sendable, Equatable {
    /// What it shows.
    public var board: Board
    /// Row-major: true where a module is between flaps.
    public var moving: [Bool]
}

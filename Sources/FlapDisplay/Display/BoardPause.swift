import FlapPrimitives
import Synchronization

/// "Quiet now": the board keeps still and messages wait, as in quiet hours that hold, until it is
/// switched off (a message that bypasses quiet hours still shows). Every panel's coordinator
/// watches it; flapd keeps it across restarts (``BoardControls`` in FlapService saves it).
public final class BoardPause: Sendable {
    private let paused: Mutex<Bool>
    private let watchers = Watchers<Bool>()

    /// Paused or not to begin with.
    public init(paused: Bool = false) { self.paused = Mutex(paused) }

    /// Whether the panels hold still now.
    public var isPaused: Bool { paused.withLock { $0 } }

    /// Switches it; watchers hear of a change only.
    public func set(_ on: Bool) {
        let changed = paused.withLock { paused in
            defer { paused = on }
            return paused != on
        }
        if changed { watchers.yield(on) }
    }

    /// Each change from now on.
    public func changes() -> AsyncStream<Bool> { watchers.watch(bufferingPolicy: .bufferingNewest(1)) }
}

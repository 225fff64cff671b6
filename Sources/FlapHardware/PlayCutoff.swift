import Synchronization

/// Where a plan in progress was cut short: the motion loop re-plans from the plan's state at
/// ``elapsed`` (time since the plan's start), so a cancelled panel must complete every landing
/// due up to then, and none after; otherwise the next plan would start from flaps the panel
/// never showed.
public final class PlayCutoff: Sendable {
    private let value = Mutex<Duration?>(nil)

    /// A plan not cut yet.
    public init() {}

    /// The time into the plan at which it was cut, once it was.
    public var elapsed: Duration? { value.withLock { $0 } }

    /// Marks the plan cut at `elapsed`; call before cancelling the task that plays it.
    public func cut(at elapsed: Duration) { value.withLock { $0 = elapsed } }
}

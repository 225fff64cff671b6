import Testing

/// A virtual clock of something the test started (an appliance in the test's process), moved on
/// while the test waits with ``eventually(patience:every:_:)``: each time the condition does not
/// hold yet, `move` is given the time to move on by. So a test reads as it would against the
/// real clock, and the plans, expiries and releases it waits for come as fast as the machine can
/// play them. Needs a suite marked `.cleansUp`, whose test scope holds the movers.
public func moveWhileWaiting(_ move: @escaping @Sendable (Duration) async -> Void) {
    guard let scope = Teardowns.current else {
        Issue.record("a virtual clock outside a test of a suite marked .cleansUp: nothing would move it")
        return
    }
    scope.addTimeMover(move)
}

/// How far a waiting test moves virtual clocks each time it asks again: at least a tenth of a
/// second, so a plan of a few seconds plays in a few dozen questions.
func virtualStep(for interval: Duration) -> Duration { max(interval, .milliseconds(100)) }

/// The real pause between questions while virtual clocks move: the other threads (the
/// appliance's server, a broker's client) get their turn, and the test does not spin.
let pauseWhileMoving = Duration.milliseconds(5)

/// Moves `movers` on a step at a time, with a real pause between, until cancelled: what waiting
/// on something outside the test's control (a program it runs) does to the virtual clocks.
func moveVirtualClocks(_ movers: [@Sendable (Duration) async -> Void]) async {
    guard !movers.isEmpty else { return }
    while !Task.isCancelled {
        for move in movers { await move(virtualStep(for: .zero)) }
        try? await Task.sleep(for: pauseWhileMoving)
    }
}

/// Waits until `condition` holds, asking again every `interval`; returns whether it held. The
/// virtual clocks the test moves (``moveWhileWaiting(_:)``) are moved on by `interval` (at least
/// a tenth of a second) each time instead, with a short real pause. For
/// state only asking can see (another process's HTTP answers, a broker's retained messages): an
/// event that can be awaited (a log line, a stream) is awaited instead.
///
/// `patience` is how long something that never comes takes to be reported, not a measure: it is
/// ``minimumPatience`` unless a wait is known to take longer (a process's crash recovery), so a
/// machine busy with other work is waited for and only what never comes fails (no test waits for
/// a condition to stay false). A measure of speed belongs in a benchmark.
public func eventually(
    patience: Duration = minimumPatience, every interval: Duration = .milliseconds(20),
    _ condition: () async throws -> Bool
) async throws -> Bool {
    precondition(patience >= minimumPatience, "a patience under \(minimumPatience) fails on a busy machine: leave it out")
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: patience)
    let movers = Teardowns.current?.timeMovers ?? []
    while true {
        if try await condition() { return true }
        if clock.now >= deadline { return false }
        if movers.isEmpty {
            try await Task.sleep(for: interval)
        } else {
            for move in movers { await move(virtualStep(for: interval)) }
            try await Task.sleep(for: pauseWhileMoving)
        }
    }
}

/// The least a test waits, in real time, for something another process or thread does: long
/// enough for two cores busy with other suites, builds and a CPU hog.
public let minimumPatience = Duration.seconds(60)
